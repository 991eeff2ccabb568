import Foundation
import Vocabulary
import SoundFiles

/// A folder of memo audio files with its SQLite index: list, find, rename, delete, restore, purge,
/// export, and the lifecycle of a recording.
///
/// The files are the truth. Opening a library repairs what it finds (see `MaintenanceReport`):
/// recordings whose process died are recovered, unknown audio files are adopted, vanished files
/// are marked missing, a corrupt index is set aside and rebuilt from the files' tags, and memos
/// deleted more than 30 days ago are purged. Several processes may open one library at once; each
/// change is one SQLite transaction. Not thread-safe: one instance per thread.
public final class MemoLibrary {
    /// How long a memo stays in Recently Deleted before opening the library purges it
    /// (`RecentlyDeleted.lifetime`, the app's rule too).
    public static let recentlyDeletedLifetime: TimeInterval = RecentlyDeleted.lifetime

    /// The library folder (absolute or as given).
    public let folder: String
    /// Whether the folder cannot be written: listing works, changes throw `.readOnly` (or,
    /// when a full disk is why, `.index(.full)`).
    public let isReadOnly: Bool
    /// Why the library was opened read-only, when it was.
    public let readOnlyCause: ReadOnlyCause?

    /// Why a library is read-only.
    public enum ReadOnlyCause: Sendable, Hashable {
        /// The folder or its file system cannot be written.
        case folder
        /// Its disk is full: the index cannot even be opened for writing (SQLite needs room for
        /// its write-ahead log), so it is read as it is and changes wait for room.
        case diskFull
    }

    /// The error a change in a read-only library throws.
    var readOnlyRefusal: MemoLibraryError {
        readOnlyCause == .diskFull ? .index(.full) : .readOnly(folder: folder)
    }
    /// What opening found and repaired.
    public internal(set) var maintenance = MaintenanceReport()

    let index: MemoIndex
    /// The folder and the index file as opened (see `onDisk()`).
    let openedIdentity: (folder: FileIdentity?, index: FileIdentity?)
    let timeZone: TimeZone
    /// Files this library decoded in full to measure them (`scanAudio(path:)`): recovery,
    /// adoption, re-reading a changed file, finishing a recording without its statistics.
    var filesDecoded = 0
    /// How opening compared the folder with the index.
    let fileCheck: FileCheck
    /// Test seam: called when a file with a new title is ready beside the original, just before
    /// it is renamed over it (original path, prepared path); throwing abandons the rename.
    var willReplaceRetaggedFile: ((String, String) throws(MemoLibraryError) -> Void)?
    /// Test seam: called inside an edit's transaction once the new files have their names and
    /// rows, before the original goes to Recently Deleted; throwing rolls the edit back.
    var willCommitEdit: (() throws(MemoLibraryError) -> Void)?

    var trashFolder: String { folder + "/" + Self.trashFolderName }
    var lockFolder: String { folder + "/" + Self.lockFolderName }

    /// Recently Deleted's files, inside the library folder.
    static let trashFolderName = ".trash"
    /// Lock files of recordings in progress (and of index repairs).
    static let lockFolderName = ".locks"

    /// Opens the library in `folder`, creating it if needed, and runs the start-up maintenance.
    ///
    /// - Parameters:
    ///   - now: the current time, for purging memos deleted more than 30 days ago.
    ///   - timeZone: for default titles and file names.
    ///   - busyTimeout: how long to wait for another process's write lock on the index.
    ///   - fileCheck: whether to look for files that changed size (see `FileCheck`).
    ///   - recovery: whether recordings whose process died are recovered now (`.atOpening`) or
    ///     left, listed as `recording`, for `finishPendingRecoveries(progress:)` (`.later`):
    ///     recovery encodes a killed MP3 or Ogg Vorbis recording and decodes every recovered
    ///     file, seconds to a minute for an hour of audio, which listing need not wait for.
    /// - Throws: `MemoLibraryError` when the folder cannot be created or the index is locked or unusable.
    public init(
        folder: String, now: Date, timeZone: TimeZone = .current, busyTimeout: Duration = .seconds(5),
        fileCheck: FileCheck = .namesAndSizes, recovery: Recovery = .atOpening
    ) throws(MemoLibraryError) {
        self.folder = folder
        self.timeZone = timeZone
        self.fileCheck = fileCheck
        if !FileSystem.exists(folder) {
            let code = FileSystem.createDirectory(folder)
            if code != 0 {
                throw .folderUnavailable(path: folder, reason: FileSystem.describe(code))
            }
        }
        try LibraryStructure.check(folder)
        let milliseconds = Int32(clamping: busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000)
        let opened = try IndexOpener(folder: folder, busyTimeoutMilliseconds: milliseconds).open(now: now)
        self.index = opened.index
        openedIdentity = (FileSystem.identity(of: folder), FileSystem.identity(of: folder + "/" + MemoIndex.fileName))
        self.isReadOnly = opened.isReadOnly
        readOnlyCause = opened.isReadOnly ? (opened.diskIsFull ? .diskFull : .folder) : nil
        maintenance.setAsideIndex = opened.setAsidePath
        maintenance.rebuiltIndex = opened.needsRebuild
        if opened.diskIsFull {
            maintenance.postponed = "the disk is full, so the library is read-only until there is room "
                + "(memos list, play and export elsewhere; changes and recordings wait)"
        }
        if isReadOnly {
            if opened.needsRebuild {
                try reconcileFiles(now: now)
            }
        } else {
            do {
                try runMaintenance(now: now, rows: opened.rows, recovery: recovery)
            } catch .index(let error) where error == .full {
                // A full disk must not hide the memos: list them as the index has them and
                // repair the rest once there is room (the next open does it again).
                maintenance.postponed = "the disk is full, so recovering and checking memos waits until there is room (\(error.message))"
            } catch .file(let path, let reason, let code?) where code == ENOSPC || code == EDQUOT {
                maintenance.postponed = "the disk is full, so \(path) could not be repaired yet (\(reason))"
            }
        }
    }

    /// Opens the library where the environment says (`LibraryLocation.folder(environment:)`).
    public convenience init(
        environment: [String: String], now: Date, timeZone: TimeZone = .current, busyTimeout: Duration = .seconds(5),
        fileCheck: FileCheck = .namesAndSizes, recovery: Recovery = .atOpening
    ) throws(MemoLibraryError) {
        guard let folder = LibraryLocation.folder(environment: environment) else {
            throw .folderUnavailable(path: "(none)", reason: "set VOICEMEMO_HOME, XDG_DATA_HOME or HOME")
        }
        try self.init(
            folder: folder, now: now, timeZone: timeZone, busyTimeout: busyTimeout, fileCheck: fileCheck,
            recovery: recovery)
    }

    /// When opening recovers recordings whose process died.
    public enum Recovery: Sendable, Hashable {
        /// While opening (the opener waits for every encode and decode).
        case atOpening
        /// Later, by `finishPendingRecoveries(progress:)`; opening only notes them in
        /// `MaintenanceReport.pendingRecoveries`.
        case later
    }

    /// Closes the index. The library must not be used afterwards.
    public func close() {
        index.database.close()
    }

    // MARK: Reading

    /// The memos in the library, or in Recently Deleted, newest first.
    public func memos(deleted: Bool = false) throws(MemoLibraryError) -> [Memo] {
        try indexCall { () throws(SQLiteError) in try index.memos(deleted: deleted) }
    }

    /// The memo with `id`, deleted or not.
    public func memo(id: Int64) throws(MemoLibraryError) -> Memo? {
        try indexCall { () throws(SQLiteError) in try index.memo(id: id) }
    }

    /// The one memo `reference` names (see `MemoReference`): all digits is an id and only an id;
    /// otherwise (or after `title:`) the title equal to it, else the only title starting with it.
    ///
    /// - Parameter deleted: look in Recently Deleted instead of the library.
    /// - Throws: `.noMemoWithID` for an id that is not there (saying where it is, if it is
    ///   on the other side), `.notFound`, or `.ambiguous` with the candidates (newest first).
    public func memo(matching reference: String, deleted: Bool = false) throws(MemoLibraryError) -> Memo {
        switch MemoReference(reference) {
        case .id(let digits):
            guard let id = Int64(digits), let memo = try memo(id: id) else {
                throw .noMemoWithID(digits, inRecentlyDeleted: deleted, onTheOtherSide: false)
            }
            guard (memo.deletedAt != nil) == deleted else {
                throw .noMemoWithID(digits, inRecentlyDeleted: deleted, onTheOtherSide: true)
            }
            return memo
        case .title(let title):
            return try memo(titled: title, deleted: deleted)
        }
    }

    /// The memo titled `title`, else the only one whose title starts with it.
    private func memo(titled title: String, deleted: Bool) throws(MemoLibraryError) -> Memo {
        let candidates = try memos(deleted: deleted)
        let exact = candidates.filter { $0.title == title }
        if exact.count == 1, let memo = exact.first {
            return memo
        }
        let prefixed = exact.isEmpty ? candidates.filter { $0.title.hasPrefix(title) } : exact
        guard let first = prefixed.first, !title.isEmpty else {
            throw .notFound(reference: title, inRecentlyDeleted: deleted)
        }
        if prefixed.count > 1 {
            throw .ambiguous(reference: title, candidates: prefixed)
        }
        return first
    }

    // MARK: Helpers

    /// Runs an index call, turning its error into the library's.
    func indexCall<Result>(_ body: () throws(SQLiteError) -> Result) throws(MemoLibraryError) -> Result {
        do {
            return try body()
        } catch {
            throw libraryError(error)
        }
    }

    /// The library's error for an index error.
    func libraryError(_ error: SQLiteError) -> MemoLibraryError {
        switch error {
        case .busy, .locked: .busy(folder: folder)
        case .readOnly: .readOnly(folder: folder)
        default: .index(error)
        }
    }

    /// Runs `body` in a write transaction (BEGIN IMMEDIATE), refusing in a read-only library.
    func write<Result>(_ body: () throws(MemoLibraryError) -> Result) throws(MemoLibraryError) -> Result {
        guard !isReadOnly else { throw readOnlyRefusal }
        do {
            return try index.database.transaction(body)
        } catch .index(let error) {
            throw libraryError(error)
        }
    }

    /// The absolute path of a path relative to the folder.
    func absolute(_ relativePath: String) -> String {
        folder + "/" + relativePath
    }

    /// The path relative to the folder of a memo's absolute path.
    func relative(_ memo: Memo) -> String {
        String(memo.path.dropFirst(folder.count + 1))
    }
}

/// What opening a library found and repaired.
public struct MaintenanceReport: Sendable, Equatable {
    /// Memos whose recording process had died, now repaired (or marked damaged/missing).
    public var recovered: [Int64] = []
    /// Memos whose recording process died and which wait for `finishPendingRecoveries` (a
    /// library opened with `recovery: .later`); listed as `recording` until then.
    public var pendingRecoveries: [Int64] = []
    /// Audio files found in the folder that the index did not know.
    public var adopted: [Int64] = []
    /// Memos whose file has vanished.
    public var missing: [Int64] = []
    /// Memos whose file cannot be read as audio.
    public var damaged: [Int64] = []
    /// Memos purged from Recently Deleted after 30 days.
    public var purged: [Int64] = []
    /// Whether the index was created from the files (it was missing, corrupt or not ours).
    public var rebuiltIndex = false
    /// Where a corrupt index was moved to (kept, never deleted).
    public var setAsideIndex: String?
    /// A copy an interrupted change left behind, removed.
    public struct RemovedCopy: Sendable, Equatable {
        /// What was making the copy.
        public enum Origin: Sendable, Equatable {
            /// A new title or the markers written into a copy of the memo's file (`.retag-`).
            case retag
            /// A trim, split or silence removal writing a new memo (`.edit-`).
            case edit
        }

        public var path: String
        public var size: Int64
        public var origin: Origin
    }

    /// Copies that renames, marker changes and edits killed part-way left beside memos'
    /// files, now removed.
    public var removedCopies: [RemovedCopy] = []
    /// Why start-up maintenance could not finish (a full disk); the memos are listed as the
    /// index has them, and the next open tries again.
    public var postponed: String?

    /// Recordings whose encode into their final file could not be done for want of room (a
    /// full disk, a file size limit): each is kept whole in its intermediate, its row
    /// `recording`, and is encoded by the next recovery once there is room.
    public var waitingForRoom: [WaitingForRoom] = []

    /// A recording kept in its intermediate until there is room to encode it.
    public struct WaitingForRoom: Sendable, Equatable {
        public var memoID: Int64
        public var title: String
        /// Why the encode stopped (`.diskFull` or `.fileTooLarge`).
        public var cause: SoundFileError
    }

    public init() {}

    /// Whether opening changed nothing.
    public var isEmpty: Bool {
        recovered.isEmpty && pendingRecoveries.isEmpty && adopted.isEmpty && missing.isEmpty && damaged.isEmpty && purged.isEmpty && postponed == nil
            && setAsideIndex == nil && removedCopies.isEmpty
    }
}
