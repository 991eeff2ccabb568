import Foundation
import Vocabulary

/// A place in a memo worth coming back to: seconds from its start, and an optional label.
public struct Marker: Sendable, Hashable {
    /// Seconds from the start of the memo.
    public var time: Double
    /// Empty when none was given.
    public var label: String

    public init(time: Double, label: String = "") {
        self.time = time
        self.label = label
    }

    /// The most characters a label takes (as a title).
    public static let maximumLabelLength = MemoTitle.maximumLength
    /// Two markers this close (seconds) are at one place: the app names a marker by the time
    /// it read back from the index, which stores it as a double (exact), so this only absorbs
    /// a time that went through text.
    public static let sameTimeTolerance = 0.000_5
}

/// Markers: added as they are pressed (one transaction each, so a kill -9 keeps every one
/// already added), read back per memo or for all.
extension MemoLibrary {
    /// Adds a marker to memo `id` (in the library or in Recently Deleted, or being recorded),
    /// and writes the memo's markers into its file where the format has a place for them.
    ///
    /// - Returns: whether the file has them too (the index always does).
    /// - Throws: `.noMemoWithID` when there is no such memo; `.invalidMarker` for a time that is
    ///   negative, not a number, or past the end of a finished memo, or a label with control
    ///   characters or over `Marker.maximumLabelLength` characters; `.readOnly`.
    @discardableResult
    public func addMarker(_ marker: Marker, toMemo id: Int64) throws(MemoLibraryError) -> MarkerFileOutcome {
        try write { () throws(MemoLibraryError) -> MarkerFileOutcome in
            let memo = try existing(id)
            if let problem = Self.problem(with: marker, in: memo) { throw .invalidMarker(memo: memo, reason: problem) }
            try indexCall { () throws(SQLiteError) in try index.insertMarker(memoID: id, marker) }
            return storeMarkersInFile(of: memo)
        }
    }

    /// Gives memo `id`'s marker at `time` the label `label` (empty: no label), in the index and
    /// in the memo's file where its format has a place for markers.
    ///
    /// - Returns: whether the file has them too (the index always does).
    /// - Throws: `.noMemoWithID`; `.invalidMarker` when the memo has no marker at `time` or for
    ///   a label `addMarker` would refuse; `.readOnly`.
    @discardableResult
    public func labelMarker(at time: Double, ofMemo id: Int64, label: String) throws(MemoLibraryError) -> MarkerFileOutcome {
        try write { () throws(MemoLibraryError) -> MarkerFileOutcome in
            let memo = try existing(id)
            if let problem = Self.labelProblem(label) { throw .invalidMarker(memo: memo, reason: problem) }
            let changed = try indexCall { () throws(SQLiteError) -> Int in
                try index.updateMarkerLabel(memoID: id, time: time, label: label)
            }
            guard changed > 0 else {
                throw .invalidMarker(memo: memo, reason: "it has no marker at \(DecimalSeconds.text(time)) s")
            }
            return storeMarkersInFile(of: memo)
        }
    }

    /// Why `marker` cannot go into `memo`, or `nil`. A memo being recorded has no length yet:
    /// any time from 0 goes.
    public static func problem(with marker: Marker, in memo: Memo) -> String? {
        guard marker.time.isFinite, marker.time >= 0 else { return "a marker's time is 0 s or more" }
        if memo.state != .recording, isPastTheEnd(marker.time, of: memo) {
            return "\(DecimalSeconds.text(marker.time)) s is past the end of the memo (it is \(DecimalSeconds.text(memo.duration)) s long)"
        }
        return labelProblem(marker.label)
    }

    /// Whether `time` lies after `memo`'s last frame: decided in frames (the nearest one, as the
    /// file's marker gets it), so 10.001 s is past a 10 s memo at 48 kHz, and a time within half
    /// a frame of the end is the end.
    static func isPastTheEnd(_ time: Double, of memo: Memo) -> Bool {
        guard memo.sampleRate > 0 else { return time > memo.duration }
        return (time * Double(memo.sampleRate)).rounded() > Double(memo.frames)
    }

    /// Why `label` cannot be a marker's label, or `nil`.
    static func labelProblem(_ label: String) -> String? {
        if label.count > Marker.maximumLabelLength {
            return "a label takes at most \(Marker.maximumLabelLength) characters (this one has \(label.count))"
        }
        if label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a label cannot hold control characters (tabs, line breaks): label tracks are one line per marker"
        }
        return nil
    }

    /// Memo `id`'s markers, earliest first.
    public func markers(ofMemo id: Int64) throws(MemoLibraryError) -> [Marker] {
        try indexCall { () throws(SQLiteError) in
            guard try index.hasMarkerTable() else { return [] }
            return try index.markers(id: id)
        }
    }

    /// Every memo's markers, by memo id (memos without markers are absent).
    public func allMarkers() throws(MemoLibraryError) -> [Int64: [Marker]] {
        try indexCall { () throws(SQLiteError) in
            guard try index.hasMarkerTable() else { return [:] }
            return try index.allMarkers()
        }
    }
}

/// Seconds as people read them in messages: `12`, `1.5`, `0.001`.
enum DecimalSeconds {
    static func text(_ seconds: Double) -> String {
        let thousandths = Int64((seconds * 1000).rounded())
        let whole = thousandths / 1000
        var fraction = String(thousandths % 1000)
        guard thousandths % 1000 != 0 else { return String(whole) }
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }
}

extension MemoLibrary {
    /// Writes memo `memo`'s markers as an Audacity label track at `path`: one line per marker,
    /// `start<TAB>end<TAB>label`, seconds with six decimals (point labels: start = end).
    ///
    /// The destination follows export's rules (`OutputDestination`): never into the library,
    /// never over a device or a folder, over a file only when `replacing`, and written beside
    /// it first and renamed over it when complete.
    /// - Returns: how many markers were written.
    @discardableResult
    public func exportLabels(of memo: Memo, to path: String, replacing: Bool = false) throws(MemoLibraryError) -> Int {
        let destination = try OutputDestination.check(path, libraryFolder: folder, replacing: replacing)
        return try writeLabels(of: memo, to: destination, replacing: replacing)
    }

    /// Writes `memo`'s label track to a checked destination; the markers written.
    @discardableResult
    func writeLabels(of memo: Memo, to destination: OutputDestination, replacing: Bool) throws(MemoLibraryError) -> Int {
        let markers = try markers(ofMemo: memo.id)
        let text = AudacityLabels.text(markers)
        try AtomicReplacement(path: destination.target, purpose: "labels").perform(replacing: replacing) {
            temporary throws(MemoLibraryError) in
            let code = FileSystem.write(Array(text.utf8), toNewFile: temporary)
            if code != 0 {
                throw .file(
                    path: destination.path, reason: "cannot write the label track: " + FileSystem.describe(code), osError: code)
            }
        }
        return markers.count
    }
}

/// Audacity's label track text format (File ▸ Import ▸ Labels).
public enum AudacityLabels {
    public static func text(_ markers: [Marker]) -> String {
        markers.map { marker in
            let time = seconds(marker.time)
            return "\(time)\t\(time)\t\(marker.label)\n"
        }.joined()
    }

    /// Six decimals, as Audacity writes them: `12.500000`.
    static func seconds(_ value: Double) -> String {
        let micro = Int64((max(value, 0) * 1_000_000).rounded())
        var fraction = String(micro % 1_000_000)
        while fraction.count < 6 { fraction = "0" + fraction }
        return "\(micro / 1_000_000).\(fraction)"
    }
}
