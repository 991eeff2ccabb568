import Foundation
import SoundFiles

/// Where a memo's markers are, besides the index, after a change.
public enum MarkerFileOutcome: Sendable, Equatable {
    /// Written into the memo's file too (WAV cue points, AIFF marks, FLAC and Ogg chapter comments).
    case written
    /// In the index only: the file has no place for them (`reason` says why: its format, or it
    /// is still being recorded, in which case finishing the recording writes them).
    case indexOnly(reason: String)
    /// In the index only: writing the file failed (`reason`); the file is as it was.
    case failed(reason: String)
}

/// Markers in the memo's file (see `FileMarkers`), so that an index rebuilt from the files keeps
/// them: written as each marker is added to a finished memo, when a recording finishes or is
/// recovered, and into a rename's or a conversion's copy; read when a file is adopted.
extension MemoLibrary {
    /// Writes every marker the index holds for `memo` into its file, in place. Call inside the
    /// write lock. Never throws: the index is the record, the file a copy of it.
    func storeMarkersInFile(of memo: Memo) -> MarkerFileOutcome {
        guard FileMarkers.canHold(memo.format) else {
            return .indexOnly(reason: "\(memo.format.displayName) files have no place for markers")
        }
        switch memo.state {
        case .recording: return .indexOnly(reason: "it is still being recorded; the markers go into the file when it is saved")
        case .missing: return .indexOnly(reason: "its file is missing")
        case .damaged: return .indexOnly(reason: "its file cannot be read as audio")
        case .complete, .recovered: break
        }
        if let shared = sharedFileReason(memo) { return .indexOnly(reason: shared) }
        let markers: [Marker]
        do {
            markers = try self.markers(ofMemo: memo.id)
        } catch {
            return .failed(reason: error.description)
        }
        guard !markers.isEmpty || FileMarkers.read(from: memo.path, format: memo.format)?.isEmpty == false else {
            return .written
        }
        if FileMarkers.isWrittenAsCopy(memo.format) {
            // A copy with the markers renamed over the file: a reader sees the old or the new one.
            do throws(MemoLibraryError) {
                try AtomicReplacement(path: memo.path, purpose: Self.retagPurpose).perform(replacing: true) {
                    temporary throws(MemoLibraryError) in
                    do throws(SoundFileError) {
                        try FileMarkers.copy(Self.fileMarkers(markers, of: memo), from: memo.path, to: temporary, format: memo.format)
                    } catch {
                        throw .sound(error)
                    }
                }
            } catch {
                return .failed(reason: error.description)
            }
        } else {
            do throws(SoundFileError) {
                guard try FileMarkers.write(Self.fileMarkers(markers, of: memo), to: memo.path, format: memo.format) else {
                    return .failed(reason: "the file is not laid out for markers to be added in place (bytes past its end, or a WAV or AIFF they would take past 4 GiB)")
                }
            } catch {
                return .failed(reason: error.description)
            }
        }
        if let size = FileSystem.size(of: memo.path) {
            try? indexCall { () throws(SQLiteError) in try index.setSize(id: memo.id, size) }
        }
        return .written
    }

    /// Writes `memo`'s markers into `copy`, a complete new file in `format` of the same audio
    /// (a rename's or an export's), before it is renamed into place. Best effort.
    func copyMarkers(of memo: Memo, into copy: String, format: FileFormat) {
        guard FileMarkers.canHold(format), let markers = try? self.markers(ofMemo: memo.id), !markers.isEmpty else { return }
        let fileMarkers = Self.fileMarkers(markers, of: memo)
        guard FileMarkers.isWrittenAsCopy(format) else {
            _ = try? FileMarkers.write(fileMarkers, to: copy, format: format)
            return
        }
        try? AtomicReplacement(path: copy, purpose: Self.retagPurpose).perform(replacing: true) { temporary throws(MemoLibraryError) in
            do throws(SoundFileError) {
                try FileMarkers.copy(fileMarkers, from: copy, to: temporary, format: format)
            } catch {
                throw .sound(error)
            }
        }
    }

    /// Adds the markers the file at `path` holds to memo `id` (just adopted, with none in the index).
    func adoptMarkers(fromFile path: String, format: FileFormat, sampleRate: Int, memoID id: Int64) throws(MemoLibraryError) {
        guard sampleRate > 0, let found = FileMarkers.read(from: path, format: format), !found.isEmpty,
            try indexCall({ () throws(SQLiteError) in try index.hasMarkerTable() })
        else { return }
        for marker in found {
            let time = Double(marker.frame) / Double(sampleRate)
            let label = Self.labelProblem(marker.label) == nil ? marker.label : ""
            try indexCall { () throws(SQLiteError) in try index.insertMarker(memoID: id, Marker(time: time, label: label)) }
        }
    }

    /// The markers as frames of `memo`'s file.
    static func fileMarkers(_ markers: [Marker], of memo: Memo) -> [FileMarker] {
        let rate = Double(max(memo.sampleRate, 1))
        return markers.map { marker in
            var frame = Int64((marker.time * rate).rounded())
            if memo.frames > 0 { frame = min(frame, memo.frames) }
            return FileMarker(frame: max(0, frame), label: marker.label)
        }
    }
}
