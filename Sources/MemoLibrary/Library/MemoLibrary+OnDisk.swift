/// Which file a path names: its device and inode. Two paths name the same file when both are
/// equal; a path whose identity changed now names another file (replaced, or deleted and
/// created again).
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64

    /// What `path` names now, following symbolic links; `nil` when nothing is there.
    public init?(of path: String) {
        guard let identity = FileSystem.identity(of: path) else { return nil }
        self = identity
    }

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// What is at the library's place on disk now, compared with what was there when it opened.
public enum LibraryOnDisk: Sendable, Hashable {
    /// The folder and the index are the ones opened.
    case asOpened
    /// The folder is the one opened but `index.sqlite3` is another file or none (another
    /// process moved a damaged index aside and rebuilt it, or deleted it): this connection
    /// writes into a file nobody else reads.
    case indexReplaced
    /// The folder was deleted (or replaced by another): its memo files and index are gone.
    case folderGone
}

extension MemoLibrary {
    /// Compares the folder and the index at their paths with the ones this library opened
    /// (device and inode: a `stat` each, no I/O beyond the inode cache).
    public func onDisk() -> LibraryOnDisk {
        guard let folderNow = FileSystem.identity(of: folder), folderNow == openedIdentity.folder else { return .folderGone }
        guard FileSystem.identity(of: indexPath) == openedIdentity.index else { return .indexReplaced }
        return .asOpened
    }

    /// A number that changes when another connection (another process, or another connection
    /// of this one) commits a change to the index: SQLite's `PRAGMA data_version`. The
    /// connection's own commits leave it as it is. Reading it touches only the WAL's shared
    /// memory, so it can be polled every second.
    /// - Throws: `.index` when the index cannot be read.
    public func changeCounter() throws(MemoLibraryError) -> Int64 {
        try indexCall { () throws(SQLiteError) -> Int64 in
            try index.database.query("PRAGMA data_version").first?.integer(0) ?? 0
        }
    }

    var indexPath: String { folder + "/" + MemoIndex.fileName }
}

extension MemoLibrary {
    /// The library folder as this library opened it.
    public var openedFolderIdentity: FileIdentity? { openedIdentity.folder }

    /// What the library's folder path names now (`nil`: nothing).
    public var currentFolderIdentity: FileIdentity? { FileSystem.identity(of: folder) }
}
