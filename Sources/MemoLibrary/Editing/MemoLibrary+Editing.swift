import Foundation
import Vocabulary
import Metering
import SoundFiles
import SpeechEnhancement

/// One memo an edit makes: its title and the frames of the original it holds, in order.
public struct EditPiece: Sendable, Hashable {
    public var title: String
    /// Half-open frame ranges of the original, in order, not overlapping, none empty.
    public var ranges: [Range<Int64>]

    public init(title: String, ranges: [Range<Int64>]) {
        self.title = title
        self.ranges = ranges
    }

    /// Frames the piece holds.
    public var frames: Int64 { ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) } }
}

/// What an edit did.
public struct EditResult: Sendable, Hashable {
    /// The original as it is now: in Recently Deleted, its file untouched.
    public var original: Memo
    /// The new memos, in the order of the pieces.
    public var memos: [Memo]
    /// Whether the audio was decoded and encoded again (a lossy encoding); otherwise every kept
    /// sample is exactly as it was.
    public var reencoded: Bool
}

/// Where an edit is: frames written of all the pieces together and, for a format written
/// through an intermediate (MP3, Ogg Vorbis, ALAC, AAC), frames encoded from it.
public struct EditProgress: Sendable, Equatable {
    public var framesWritten: Int64
    public var totalFrames: Int64
    /// Frames encoded into the new files so far; 0 for a format with no encoding pass.
    public var framesEncoded: Int64 = 0
    /// The format being encoded in a second pass over the frames, or `nil` when there is none.
    public var encodedFormat: FileFormat?
    /// Whether the encoding pass is under way (the last report came from it).
    public var isEncoding = false

    /// How much is done, 0…1: with an encoding pass, each frame counts twice (written, then
    /// encoded), so 1 comes only once the last frame is encoded.
    public var fraction: Double {
        guard totalFrames > 0 else { return 0 }
        guard encodedFormat != nil else { return min(1, Double(framesWritten) / Double(totalFrames)) }
        return min(1, Double(framesWritten + framesEncoded) / Double(2 * totalFrames))
    }
}

/// Trim, split and silence removal: an original memo becomes one or more new memos holding
/// chosen frames of it, and the original goes to Recently Deleted, whole.
///
/// Crash safety: each new file is written under a hidden temporary name in the library folder
/// (`.NAME.edit-PID.ext`, never adopted; the next opening removes it if its process is gone)
/// and flushed with `fsync`, outside the index's lock. Then, in one transaction, the new files
/// are renamed to their names, their rows inserted, and the original moved to Recently Deleted.
/// A kill -9 before that transaction leaves the original as it was; after it, the new memos
/// and the original in Recently Deleted. A full disk stops the writing with the cause and
/// removes what was written; the original is not touched.
extension MemoLibrary {
    /// The purpose in an edit's temporary file names (`.NAME.edit-PID.ext`).
    static let editPurpose = "edit"

    /// Keeps frames `range` of memo `id` as a new memo with the same title.
    ///
    /// - Throws: `.invalidEdit` (a usage error) for an empty range or one past the end;
    ///   `.notAllowed` for a memo being recorded, deleted, missing or damaged; `.sound` when
    ///   reading or writing fails (the disk full among them); index errors.
    public func trim(
        id: Int64, keeping range: Range<Int64>, at date: Date, progress: @escaping (EditProgress) -> Bool = { _ in true }
    ) throws(MemoLibraryError) -> EditResult {
        let memo = try editable(id, verb: "trimmed")
        guard range.lowerBound < memo.frames || range.lowerBound < 0 else {
            throw .invalidEdit(memo: memo, reason: "nothing would be kept: the start (\(Self.time(range.lowerBound, memo)) s) is not before the end of the memo (it is \(Self.time(memo.frames, memo)) s long)")
        }
        guard range.lowerBound >= 0, range.upperBound <= memo.frames else {
            throw .invalidEdit(memo: memo, reason: "the range \(Self.time(range.lowerBound, memo))–\(Self.time(range.upperBound, memo)) s goes past the end of the memo (it is \(Self.time(memo.frames, memo)) s long)")
        }
        guard !range.isEmpty else {
            throw .invalidEdit(memo: memo, reason: "nothing would be kept: the start (\(Self.time(range.lowerBound, memo)) s) must come before the end (\(Self.time(range.upperBound, memo)) s)")
        }
        guard range != 0..<memo.frames else {
            throw .invalidEdit(memo: memo, reason: "the range is the whole memo: nothing would be trimmed")
        }
        return try edit(memo, into: [EditPiece(title: memo.title, ranges: [range])], by: .trim, at: date, progress: progress)
    }

    /// Splits memo `id` at `frame` into two memos, "TITLE (1)" and "TITLE (2)".
    ///
    /// - Throws: `.invalidEdit` for a frame at or beyond either end; otherwise as `trim`.
    public func split(
        id: Int64, atFrame frame: Int64, at date: Date, progress: @escaping (EditProgress) -> Bool = { _ in true }
    ) throws(MemoLibraryError) -> EditResult {
        let memo = try editable(id, verb: "split")
        guard frame > 0, frame < memo.frames else {
            throw .invalidEdit(memo: memo, reason: "\(Self.time(frame, memo)) s is not inside the memo: split between 0 and \(Self.time(memo.frames, memo)) s (both ends excluded)")
        }
        let pieces = [
            EditPiece(title: Self.numberedTitle(memo.title, 1), ranges: [0..<frame]),
            EditPiece(title: Self.numberedTitle(memo.title, 2), ranges: [frame..<memo.frames]),
        ]
        return try edit(memo, into: pieces, by: .split, at: date, progress: progress)
    }

    /// Makes `pieces` of memo `memo` (see the type's discussion for the order of the steps).
    /// With `enhancement`, the frames go through the denoiser on their way (`enhance`); `kind`
    /// is the original's reason in Recently Deleted.
    func edit(
        _ memo: Memo, into pieces: [EditPiece], by kind: MemoEdit, at date: Date, enhancement: EnhancementSettings? = nil,
        progress: @escaping (EditProgress) -> Bool
    ) throws(MemoLibraryError) -> EditResult
    {
        let name = String(relative(memo).split(separator: "/").last ?? "")
        let prepared = try preparePieces(of: memo, named: name, into: pieces, enhancement: enhancement, progress: progress)
        var placed: [String] = []
        do throws(MemoLibraryError) {
            return try write { () throws(MemoLibraryError) -> EditResult in
                // Again under the lock: another process may have deleted, trimmed or renamed it.
                let current = try existing(memo.id)
                guard current.deletedAt == nil, current.path == memo.path, current.frames == memo.frames else {
                    throw .notAllowed(memo: current, reason: "it changed while it was being edited (deleted, moved or re-recorded elsewhere); nothing was changed")
                }
                let markers = try markers(ofMemo: memo.id)
                // The words found in the original stay found in its pieces, at their new times
                // (an enhanced memo is heard afresh: the denoiser changes what is recognised).
                let heard = enhancement != nil ? nil
                    : try indexCall { () throws(SQLiteError) in try index.transcript(id: memo.id, memoFrames: memo.frames) }
                var ids: [Int64] = []
                for file in prepared {
                    let destination = try freeRelativePath(for: name, in: "")
                    try move(file.temporary.temporaryPath, to: absolute(destination))
                    placed.append(absolute(destination))
                    ids.append(try insertPiece(
                        file, of: current, at: destination,
                        markers: EditMarkers.moved(markers, sampleRate: memo.sampleRate, into: file.piece, of: pieces),
                        transcript: heard.flatMap { heard in
                            heard.state == .complete
                                ? (EditTranscript.moved(heard.transcript, sampleRate: memo.sampleRate, into: file.piece), heard.transcribedAt)
                                : nil
                        }))
                }
                _ = FileSystem.synchronizeDirectory(folder)
                try willCommitEdit?()
                let original = try moveToRecentlyDeleted(current, at: date, because: .replaced(by: kind))
                return EditResult(
                    original: original, memos: try ids.map { (id) throws(MemoLibraryError) in try existing(id) },
                    reencoded: !FrameRangeCopy.isExact(memo.encoding))
            }
        } catch {
            // The transaction was rolled back: the new files must not stay to be adopted.
            for path in placed { _ = FileSystem.remove(path) }
            for file in prepared { file.temporary.discard() }
            throw error
        }
    }

    /// A piece of an edit written beside the library, not yet in it.
    struct PreparedPiece {
        var temporary: AtomicReplacement
        var piece: EditPiece
        var created: Date
        var statistics: ProgrammeStatistics
        var envelope: PeakEnvelope
    }

    /// Writes each of `pieces` of `memo` to a temporary file beside the library (none of them
    /// in it yet); on an error or a stop, those written are discarded.
    private func preparePieces(
        of memo: Memo, named name: String, into pieces: [EditPiece], enhancement: EnhancementSettings?,
        progress: @escaping (EditProgress) -> Bool
    ) throws(MemoLibraryError) -> [PreparedPiece] {
        let total = pieces.reduce(0) { $0 + $1.frames }
        let reader: SoundFileReader
        do {
            reader = try SoundFileReader(path: memo.path)
        } catch {
            throw .sound(error)
        }
        defer { reader.close() }
        let settings = RecordingSettings(
            format: memo.format, encoding: memo.encoding, sampleRate: reader.info.sampleRate, channels: reader.info.channels)
        var prepared: [PreparedPiece] = []
        var done: Int64 = 0
        let encodedFormat = FrameRangeCopy.encodesAfterCopying(settings) ? memo.format : nil
        do throws(MemoLibraryError) {
            for (number, piece) in pieces.enumerated() {
                let created = memo.created.addingTimeInterval(Double(piece.ranges.first?.lowerBound ?? 0) / Double(max(1, memo.sampleRate)))
                // The original's tags, star and channel roles go with each piece, in its comment
                // too (not MP3's: its 28-byte ID3v1 comment would cut them).
                let comment = MemoComment(tags: memo.tags, isStarred: memo.isStarred, channelRoles: memo.channelRoles).text
                let metadata = SoundFileMetadata(
                    title: piece.title, comment: comment.isEmpty || memo.format == .mp3 ? nil : comment,
                    date: SoundFileMetadata.dateText(secondsSince1970: created.timeIntervalSince1970))
                let stem = MemoFileName.stem(of: name)
                let replacement = AtomicReplacement(
                    path: absolute(stem + "-\(number + 1)" + String(name.dropFirst(stem.count))), purpose: Self.editPurpose)
                var measured: (statistics: ProgrammeStatistics, envelope: PeakEnvelope)?
                let before = done
                var copy = FrameRangeCopy(ranges: piece.ranges) { step in
                    progress(EditProgress(
                        framesWritten: before + step.written, totalFrames: total,
                        framesEncoded: encodedFormat == nil ? 0 : before + (step.encoded ?? 0),
                        encodedFormat: encodedFormat, isEncoding: step.encoded != nil))
                }
                copy.enhancement = enhancement
                try replacement.prepare { (temporary) throws(MemoLibraryError) in
                    do throws(SoundFileError) {
                        measured = try copy.copy(from: reader, to: temporary, settings: settings, metadata: metadata)
                    } catch {
                        Self.removeIntermediate(of: temporary)
                        throw .editStopped(memo: memo, cause: error)
                    }
                }
                done += piece.frames
                guard let measured else { continue }
                prepared.append(PreparedPiece(
                    temporary: replacement, piece: piece, created: created, statistics: measured.statistics, envelope: measured.envelope))
            }
        } catch {
            for file in prepared { file.temporary.discard() }
            throw error
        }
        return prepared
    }

    /// The index row of `file`, placed at `destination`, with its envelope, `markers`,
    /// `transcript` (words and when they were heard) and the tags, star and channel roles of `memo`, inside
    /// the edit's transaction; its id.
    private func insertPiece(
        _ file: PreparedPiece, of memo: Memo, at destination: String, markers: [Marker], transcript: (Transcript, Date)?
    ) throws(MemoLibraryError) -> Int64 {
        var row = Memo(
            id: 0, title: file.piece.title, created: file.created,
            duration: Double(file.piece.frames) / Double(max(1, memo.sampleRate)), frames: file.piece.frames,
            sampleRate: memo.sampleRate, channels: memo.channels, format: memo.format, encoding: memo.encoding,
            path: absolute(destination), size: FileSystem.size(of: absolute(destination)) ?? 0,
            peakDB: max(file.statistics.samplePeakDB, Double(Decibels.floor)), state: .complete)
        file.statistics.apply(to: &row)
        row.tags = memo.tags
        row.isStarred = memo.isStarred
        row.channelRoles = memo.channelRoles
        let inserted = row
        let id = try indexCall { () throws(SQLiteError) in try index.insert(inserted, relativePath: destination) }
        try indexCall { () throws(SQLiteError) in try index.storeEnvelope(memoID: id, file.envelope) }
        for marker in markers {
            try indexCall { () throws(SQLiteError) in try index.insertMarker(memoID: id, marker) }
        }
        if let (words, heardAt) = transcript {
            try indexCall { () throws(SQLiteError) in
                try index.replaceTranscript(id: id, state: .complete, transcript: words, problem: nil, at: heardAt)
            }
        }
        return id
    }

    /// The memo `id` if it can be edited now (`verb`: "trimmed", for the reason).
    ///
    /// A caller that checks an edit's range against the memo's length asks this first: a
    /// missing or damaged memo has no length (0 frames), and its range would be refused for
    /// that instead of the memo for its damage.
    ///
    /// - Throws: `.readOnly`; `.notAllowed` for a memo in Recently Deleted, being recorded,
    ///   missing or damaged (naming the damage); `.noMemoWithID`.
    public func editable(_ id: Int64, verb: String, checkingItsAudio: Bool = true) throws(MemoLibraryError) -> Memo {
        guard !isReadOnly else { throw readOnlyRefusal }
        let memo = try existing(id)
        if memo.deletedAt != nil { throw .notAllowed(memo: memo, reason: "it is in Recently Deleted; restore it before it can be \(verb)") }
        switch memo.state {
        case .recording: throw .notAllowed(memo: memo, reason: "it is being recorded; it can be \(verb) once the recording stops")
        case .missing: throw .notAllowed(memo: memo, reason: "its file is missing")
        case .damaged: throw .notAllowed(memo: memo, reason: Self.damagedReason(of: memo))
        case .complete, .recovered: break
        }
        if checkingItsAudio { try checkRewritable(memo) }
        return memo
    }

    /// An edit writes new files of the memo's own format, rate and channels: a file that came
    /// from elsewhere (1 Hz, 1 024 channels) may have what no writer takes. Refused before any
    /// range is checked, so that the words name the memo's audio, not the range.
    func checkRewritable(_ memo: Memo) throws(MemoLibraryError) {
        if let limitation = conversionSettings(memo, format: memo.format).limitation() {
            throw .notAllowed(
                memo: memo, reason: "its audio (\(memo.sampleRate) Hz, \(memo.channels) \(memo.channels == 1 ? "channel" : "channels")) "
                    + "cannot be written again as \(memo.format.displayName): \(limitation)")
        }
    }

    /// `title (n)`, shortened so that it stays within `MemoTitle.maximumLength`.
    static func numberedTitle(_ title: String, _ number: Int) -> String {
        let suffix = " (\(number))"
        return String(title.prefix(MemoTitle.maximumLength - suffix.count)) + suffix
    }

    /// Seconds of `frames` of `memo`, as messages show them.
    static func time(_ frames: Int64, _ memo: Memo) -> String {
        DecimalSeconds.text(Double(frames) / Double(max(1, memo.sampleRate)))
    }

    /// The process that was writing an edit's temporary file `name`: `.NAME.edit-PID.ext`, or
    /// the intermediate of a lossy one (`..NAME.edit-PID.ext.partial.w64` and `.partial.json`,
    /// and an M4A's `.encoding.m4a`).
    static func editOwnerProcessID(ofTemporaryName name: String) -> Int32? {
        ownerProcessID(ofTemporaryName: name, purpose: editPurpose)
    }

    /// The process that made `name`: a copy made for `purpose` by `AtomicReplacement`, or a
    /// lossy writer's file beside such a copy (`TemporarySibling`); `nil` for another file.
    static func ownerProcessID(ofTemporaryName name: String, purpose: String) -> Int32? {
        for suffix in TemporarySibling.allCases.map(\.suffix) where name.hasPrefix("..") && name.hasSuffix(suffix) {
            return AtomicReplacement.ownerProcessID(ofTemporaryName: String(name.dropFirst().dropLast(suffix.count)), purpose: purpose)
        }
        return AtomicReplacement.ownerProcessID(ofTemporaryName: name, purpose: purpose)
    }

    /// Removes the W64 intermediate (and its recipe) a lossy format's writer left beside `path`.
    static func removeIntermediate(of path: String) {
        _ = FileSystem.remove(TemporarySibling.intermediate.path(beside: path))
        _ = FileSystem.remove(TemporarySibling.recipe.path(beside: path))
    }
}

/// Where an original's markers go when it is cut into pieces.
enum EditMarkers {
    /// The markers of the original that fall into `piece`, at their times in it: a marker in a
    /// part that was cut out moves to the cut. A marker on the boundary between two pieces
    /// goes to the later one; one at the very end of the last kept range stays at its end.
    static func moved(_ markers: [Marker], sampleRate: Int, into piece: EditPiece, of pieces: [EditPiece]) -> [Marker] {
        guard let first = piece.ranges.first, let last = piece.ranges.last else { return [] }
        let rate = Double(max(1, sampleRate))
        let endIsShared = pieces.contains { $0.ranges.first?.lowerBound == last.upperBound }
        return markers.compactMap { marker in
            let frame = Int64((marker.time * rate).rounded())
            guard frame >= first.lowerBound, frame < last.upperBound || (frame == last.upperBound && !endIsShared) else { return nil }
            var offset: Int64 = 0
            for range in piece.ranges {
                if frame < range.lowerBound { break }
                if frame <= range.upperBound {
                    offset += frame - range.lowerBound
                    return Marker(time: Double(offset) / rate, label: marker.label)
                }
                offset += range.upperBound - range.lowerBound
            }
            return Marker(time: Double(offset) / rate, label: marker.label)
        }
    }
}

/// Where an original's transcript goes when it is cut into pieces (trim, split, remove the
/// pauses): the words heard in a kept range, at their times in the piece, so a search finds
/// in the edited memo what it found before, and the words stay where they are heard.
enum EditTranscript {
    /// `transcript`'s words whose middle lies in one of `piece`'s ranges, their times moved
    /// (and held within that range); the transcript of `piece.frames` frames, same model.
    static func moved(_ transcript: Transcript, sampleRate: Int, into piece: EditPiece) -> Transcript {
        let rate = Double(max(1, sampleRate))
        var words: [TranscriptWord] = []
        var offset: Int64 = 0
        var remaining = transcript.words[...]
        for range in piece.ranges {
            let lower = Double(range.lowerBound) / rate
            let upper = Double(range.upperBound) / rate
            let shift = Double(offset) / rate - lower
            while let word = remaining.first {
                let middle = (word.start + word.end) / 2
                if middle.isFinite, middle >= upper { break }
                remaining = remaining.dropFirst()
                guard middle.isFinite, middle >= lower else { continue }
                words.append(TranscriptWord(
                    word: word.word, start: min(max(word.start, lower), upper) + shift, end: min(max(word.end, lower), upper) + shift,
                    speaker: word.speaker))
            }
            offset += range.upperBound - range.lowerBound
        }
        return Transcript(words: words, model: transcript.model, frames: piece.frames)
    }
}
