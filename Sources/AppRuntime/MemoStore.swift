import Foundation
import Interface
import MemoLibrary
import Vocabulary
import Metering
import SoundFiles
import Synchronization

/// What the app asks of the memo library, with its errors already in words for the
/// status line. The app keeps one `MemoLibrary` open for its whole run; other processes
/// (a `voicememo record` from cron) may change the library meanwhile, and each reload
/// sees their memos.
///
/// Threading: the app's effect runner creates it and uses it on its queue (one SQLite
/// connection, one thread at a time). The connection is held in a mutex (`connection`), so
/// the compiler checks that it is never used from two threads at once.
final class MemoStore: Sendable {
    private struct Connection {
        var library: MemoLibrary
        /// How many times the library was opened again (its index replaced, its folder deleted):
        /// a recording begun before the last reopening has its row in an index no longer used.
        var generation = 0
        /// `PRAGMA data_version` at the last look (`refresh()`).
        var changeCounter: Int64?
        /// The folder's and Recently Deleted's modification times at the last look that found
        /// them settled (`refresh()`).
        var folderStamp: FolderStamp?
    }

    private let connection: Mutex<Connection>
    private let environment: [String: String]

    /// Opens the library at `$VOICEMEMO_HOME` (else the XDG data folder), running its
    /// start-up maintenance (recovering recordings whose process died, adopting files,
    /// purging Recently Deleted after 30 days).
    init(environment: [String: String]) throws(MemoLibraryError) {
        self.environment = environment
        let library = try MemoLibrary(environment: environment, now: Date())
        let counter = try? library.changeCounter()
        connection = Mutex(Connection(library: library, changeCounter: counter, folderStamp: library.folderStamp()))
    }

    /// Runs `body` with the connection (on the runner; the mutex makes the compiler check it).
    private func withLibrary<T: Sendable>(_ body: (inout Connection) throws(MemoLibraryError) -> T) throws(MemoLibraryError) -> T {
        try connection.withLock { (held: inout sending Connection) throws(MemoLibraryError) -> sending T in try body(&held) }
    }

    /// `withLibrary` for what cannot fail.
    private func withLibrary<T: Sendable>(_ body: (inout Connection) -> T) -> T {
        connection.withLock { (held: inout sending Connection) -> sending T in body(&held) }
    }

    /// How many times the library was opened again (`Connection.generation`).
    var generation: Int { withLibrary { $0.generation } }

    /// The library folder.
    var folder: String { withLibrary { $0.library.folder } }

    /// What `refresh()` found.
    enum Refresh: Equatable {
        /// Nothing changed since the last look.
        case unchanged
        /// Another process (or this one's voice activation, on its own connection) changed the index.
        case changedElsewhere
        /// The index or the folder was no longer the one opened (`LibraryOnDisk`): the library
        /// was opened again where it belongs (creating the folder if it was deleted).
        case reopened(LibraryOnDisk)
        /// Files came into the folder (adopted as memos) or left it (their memos missing).
        case filesChanged(adopted: [AdoptedFile])
    }

    /// How long after the folder last changed it is looked at again on every refresh: a file
    /// being copied in is adopted as soon as it appears, and measured again as it grows.
    static let folderSettlingSeconds = 3.0

    /// Looks whether the library changed under the app since the last look: the folder and the
    /// index still the ones opened (device and inode), and SQLite's `data_version`, which other
    /// connections' commits change. Cheap enough for a poll every second.
    /// - Throws: when the library had to be opened again and could not be (it stays as it was).
    func refresh() throws(MemoLibraryError) -> Refresh {
        let environment = environment
        return try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> Refresh in
            let onDisk = held.library.onDisk()
            guard onDisk == .asOpened else {
                let reopened = try MemoLibrary(environment: environment, now: Date())
                held.library.close()
                held.library = reopened
                held.generation += 1
                held.changeCounter = try? reopened.changeCounter()
                held.folderStamp = reopened.folderStamp()
                return .reopened(onDisk)
            }
            // Files dropped into the folder or taken away (a file manager, `cp`, `mv`): the
            // folder's modification time says so without reading it.
            let stamp = held.library.folderStamp()
            if stamp != held.folderStamp {
                let now = Date().timeIntervalSince1970
                let changedAt = Double(max(stamp.folder ?? 0, stamp.trash ?? 0)) / 1e9
                if now - changedAt >= Self.folderSettlingSeconds { held.folderStamp = stamp }
                let found = try held.library.lookAtFolder(now: Date())
                if !found.adopted.isEmpty || !found.missing.isEmpty {
                    held.changeCounter = try? held.library.changeCounter()
                    return .filesChanged(adopted: found.adopted)
                }
            }
            let counter = try held.library.changeCounter()
            defer { held.changeCounter = counter }
            return counter == held.changeCounter ? .unchanged : .changedElsewhere
        }
    }

    /// The library folder as opened now (a recording remembers it: if it changes before the
    /// recording stops, the folder was deleted under it).
    var folderIdentity: FileIdentity? { withLibrary { $0.library.openedFolderIdentity } }

    /// `recording`, begun before the library was opened again, as the current index knows it.
    func rebind(_ recording: MemoRecording) throws(MemoLibraryError) -> MemoRecording {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> MemoRecording in
            let library = held.library
            return try library.rebind(recording)
        }
    }

    /// A second connection to the same library, for a thread of its own (voice
    /// activation's takes are begun and finished on the recorder's thread).
    static func openConnection(environment: [String: String]) throws(MemoLibraryError) -> MemoLibrary {
        try MemoLibrary(environment: environment, now: Date())
    }

    /// The library's memos, newest first, leaving out the one at `excludedPath` (the
    /// recording this app has in progress: it joins the table when it stops).
    func memos(excluding excludedPath: String?) throws(MemoLibraryError) -> [Memo] {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> [Memo] in
            let library = held.library
            return try library.memos().filter { $0.path != excludedPath }
        }
    }

    /// Recently Deleted, most recently deleted first.
    func deletedMemos() throws(MemoLibraryError) -> [Memo] {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> [Memo] in
            let library = held.library
            return try library.memos(deleted: true).sorted { ($0.deletedAt ?? $0.created) > ($1.deletedAt ?? $1.created) }
        }
    }

    /// Creates the memo (state `recording`) and says where to write its audio; `channelRoles`
    /// for a meeting's.
    func beginRecording(
        title: String, settings: RecordingSettings, created: Date, channelRoles: ChannelRoles? = nil
    ) throws(MemoLibraryError) -> MemoRecording {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> MemoRecording in
            let library = held.library
            return try library.beginRecording(title: title, settings: settings, at: created, channelRoles: channelRoles)
        }
    }

    /// Stores what the finished recording holds, with the statistics its recorder measured
    /// (the file is not decoded unless `statistics` is `nil`).
    func finishRecording(_ recording: MemoRecording, statistics: ProgrammeStatistics?) throws(MemoLibraryError) -> Memo {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> Memo in
            let library = held.library
            return try library.finishRecording(recording, statistics: statistics)
        }
    }

    /// Removes a recording that never started.
    func abandonRecording(_ recording: MemoRecording) {
        withLibrary { (held: inout Connection) -> Void in
            let library = held.library
            _ = try? library.abandonRecording(recording)
        }
    }

    /// Renames; with `expectedTitle`, only if the memo still has that title (an undo).
    func rename(_ id: Int64, to title: String, ifTitleIs expectedTitle: String? = nil) throws(MemoLibraryError) {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> Void in
            let library = held.library
            _ = try library.rename(id: id, to: title, ifTitleIs: expectedTitle)
        }
    }

    /// Gives memo `id` these tags and this star (in its file too, where its format has room).
    func setTags(_ id: Int64, tags: [String], starred: Bool) throws(MemoLibraryError) {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> Void in
            let library = held.library
            _ = try library.changeTags(id: id, MemoTag.Change(replacement: tags))
            _ = try library.setStarred(id: id, starred)
        }
    }

    /// Moves to Recently Deleted.
    func delete(_ id: Int64) throws(MemoLibraryError) {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> Void in
            let library = held.library
            _ = try library.delete(id: id, at: Date())
        }
    }

    /// Brings back from Recently Deleted.
    func restore(_ id: Int64) throws(MemoLibraryError) {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> Void in
            let library = held.library
            _ = try library.restore(id: id)
        }
    }

    func addMarker(_ marker: Marker, toMemo id: Int64) throws(MemoLibraryError) {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> Void in
            let library = held.library
            _ = try library.addMarker(marker, toMemo: id)
        }
    }

    /// Gives memo `id`'s marker at `time` the label `label`.
    func labelMarker(at time: Double, ofMemo id: Int64, label: String) throws(MemoLibraryError) {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> Void in
            let library = held.library
            _ = try library.labelMarker(at: time, ofMemo: id, label: label)
        }
    }

    /// Memo `id`'s markers, earliest first.
    func markers(ofMemo id: Int64) throws(MemoLibraryError) -> [Marker] {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> [Marker] in
            let library = held.library
            return try library.markers(ofMemo: id)
        }
    }

    /// Memo `id` as the index has it now (in the library or Recently Deleted); `nil` when it is gone.
    func memo(id: Int64) throws(MemoLibraryError) -> Memo? {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> Memo? in
            let library = held.library
            return try library.memo(id: id)
        }
    }

    /// Writes a copy of memo `id` to `path` (the format its extension names), never over an
    /// existing file; gives the memo and the path written.
    ///
    /// With `loudness`, the copy is normalised to it (`export --loudness`), `progress` told how far it is.
    /// Checks that memo `id` may be exported to `path` (the folder exists, nothing is there,
    /// nowhere only the library writes), writing nothing.
    func checkExport(_ id: Int64, to path: String) throws(MemoLibraryError) {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> Void in
            let library = held.library
            guard let memo = try library.memo(id: id) else { throw .notFound(reference: String(id), inRecentlyDeleted: false) }
            _ = try library.planExport(memo, to: path, labels: nil, format: nil, replacing: false)
        }
    }

    func export(
        _ id: Int64, to path: String, loudness: LoudnessTarget? = nil, progress: (ExportProgress) -> Void = { _ in }
    ) throws(MemoLibraryError) -> (title: String, path: String, normalised: LoudnessExportResult?) {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> (title: String, path: String, normalised: LoudnessExportResult?) in
            let library = held.library
            guard let memo = try library.memo(id: id) else { throw .notFound(reference: String(id), inRecentlyDeleted: false) }
            var plan = try library.planExport(memo, to: path, labels: nil, format: nil, replacing: false)
            plan.loudness = loudness
            let normalised = try library.perform(plan, progress: progress)
            return (memo.title, plan.paths.first ?? path, normalised)
        }
    }

    /// Removes for good.
    func purge(_ id: Int64) throws(MemoLibraryError) {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> Void in
            let library = held.library
            return try library.purge(id: id)
        }
    }

    /// Trims or splits (the library's edit, as `voicememo trim` and `split` do it), reporting
    /// how far it is.
    func edit(_ request: EditRequest, progress: @escaping (EditProgress) -> Void) throws(MemoLibraryError) -> EditResult {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> EditResult in
            let library = held.library
            guard let memo = try library.memo(id: request.memoID) else {
                throw .noMemoWithID(String(request.memoID), inRecentlyDeleted: false, onTheOtherSide: false)
            }
            func frame(_ seconds: Double) -> Int64 { Int64((seconds * Double(memo.sampleRate)).rounded()) }
            let report: (EditProgress) -> Bool = { progress($0); return true }
            switch request {
            case .trim(_, _, let start, let end):
                return try library.trim(id: memo.id, keeping: frame(start)..<max(frame(start), min(frame(end), memo.frames)), at: Date(), progress: report)
            case .split(_, _, let time):
                return try library.split(id: memo.id, atFrame: frame(time), at: Date(), progress: report)
            case .removeSilences:
                return try library.removeSilences(id: memo.id, SilenceRemoval(), at: Date(), progress: report)
            case .enhance:
                return try library.enhance(id: memo.id, at: Date(), progress: report)
            case .cutWords(_, _, let span), .keepWords(_, _, let span):
                let keeping = if case .keepWords = request { true } else { false }
                return try library.cutWords(
                    id: memo.id, pauseBefore: span.pauseBefore, pauseAfter: span.pauseAfter, keeping: keeping, at: Date(),
                    progress: report)
            }
        }
    }

    /// Undoes an edit: the original back, the memos it made to Recently Deleted.
    func undoEdit(originalID: Int64, madeIDs: [Int64]) throws(MemoLibraryError) {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> Void in
            let library = held.library
            _ = try library.undoEdit(originalID: originalID, madeIDs: madeIDs, at: Date())
        }
    }

    /// Memo `id`'s peak envelope for the waveform band: the stored one (measured from its file,
    /// once, for a memo from before envelopes were kept); `nil` for one being recorded or gone.
    func envelope(ofMemo id: Int64) -> PeakEnvelope? {
        withLibrary { (held: inout Connection) -> PeakEnvelope? in
            let library = held.library
            guard let memo = try? library.memo(id: id) else { return nil }
            return try? library.envelope(of: memo)
        }
    }

    /// The memos whose transcripts hold the words of `query`, its last word as a prefix (it is
    /// being typed in the `/` filter).
    func transcriptMatches(_ query: String) throws(MemoLibraryError) -> [TranscriptMatch] {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> [TranscriptMatch] in
            let library = held.library
            return try library.searchTranscripts(query, lastWordIsPrefix: true).map {
                TranscriptMatch(memoID: $0.memo.id, time: $0.time, snippet: $0.snippet)
            }
        }
    }

    /// Memo `id`'s transcript for the transcript view.
    func transcriptContent(of id: Int64) throws(MemoLibraryError) -> TranscriptContent {
        try withLibrary { (held: inout Connection) throws(MemoLibraryError) -> TranscriptContent in
            let library = held.library
            guard let memo = try library.memo(id: id), let stored = try library.transcript(of: memo) else { return .missing }
            switch stored.state {
            case .complete: return .words(stored.transcript.words.map(SpokenWord.init))
            case .failed: return .failed(stored.problem ?? "unknown")
            case .none, .stale: return .missing
            }
        }
    }
}
