import Foundation

/// Opens a library's index, whatever state it is in: missing (created), corrupt or not ours (set
/// aside and recreated), locked (`.busy`), or in a read-only folder (opened read-only, or built in
/// memory from the files).
struct IndexOpener {
    let folder: String
    let busyTimeoutMilliseconds: Int32

    /// The outcome of opening.
    struct Opened {
        var index: MemoIndex
        var isReadOnly: Bool
        /// Opened read-only because the disk is full.
        var diskIsFull = false
        /// The index is new or empty and must be filled from the files.
        var needsRebuild: Bool
        var setAsidePath: String?
        /// Every row as read while checking the index, for start-up maintenance to reuse.
        var rows: [MemoIndex.FileRow]? = nil
    }

    private var indexPath: String { folder + "/" + MemoIndex.fileName }

    func open(now: Date) throws(MemoLibraryError) -> Opened {
        guard FileSystem.isWritableDirectory(folder) else { return try openReadOnly() }
        do {
            return try openForWriting(now: now)
        } catch .index(let error) where (error == .full || error == .ioError) && diskIsFull {
            // SQLite cannot open a WAL index for writing on a full disk (its -shm and -wal need
            // room; it says SQLITE_IOERR as often as SQLITE_FULL). Reading must still work.
            var opened = try openReadOnly()
            opened.diskIsFull = true
            return opened
        }
    }

    /// Whether the folder's disk has no room left to speak of (less than the reserve a
    /// recording leaves for the index).
    private var diskIsFull: Bool {
        FileSystem.availableBytes(at: folder).map { $0 < 256 * 1024 } ?? false
    }

    private func openForWriting(now: Date) throws(MemoLibraryError) -> Opened {
        let existed = FileSystem.exists(indexPath)
        switch attempt() {
        case .success(let (index, rows)):
            return Opened(index: index, isReadOnly: false, needsRebuild: !existed, setAsidePath: nil, rows: rows)
        case .failure(.sqlite(let error)) where !error.meansCorruptFile:
            throw mapped(error)
        case .failure:
            break
        }
        // Corrupt or not ours. Only one process sets it aside: the others wait here, then find a good index.
        let lockPath = folder + "/" + MemoLibrary.lockFolderName + "/index.lock"
        _ = FileSystem.createDirectory(folder + "/" + MemoLibrary.lockFolderName)
        let lock: Int32
        switch FileSystem.lockFile(lockPath, wait: true) {
        case .success(let descriptor): lock = descriptor
        case .failure(let error): throw .folderUnavailable(path: lockPath, reason: FileSystem.describe(error.code))
        }
        defer { FileSystem.unlock(lock) }
        var setAside: String?
        if case .failure(let problem) = attempt() {
            if case .sqlite(let error) = problem, !error.meansCorruptFile {
                throw mapped(error)
            }
            setAside = try setAsideIndex(now: now)
        } else {
            // Someone else repaired it while we waited.
        }
        switch attempt() {
        case .success(let (index, rows)):
            return Opened(
                index: index, isReadOnly: false, needsRebuild: setAside != nil, setAsidePath: setAside, rows: rows)
        case .failure(.sqlite(let error)):
            throw mapped(error)
        case .failure(.wrongSchema(let reason)):
            throw .index(SQLiteError(code: SQLiteError.corrupt.code, message: reason))
        }
    }

    /// Opens and checks the index, trying again while another process holds a lock, up to the busy timeout.
    ///
    /// SQLite's busy handler covers most waits, but not all: two processes creating the index at
    /// once, or one switching it to WAL while the other reads its header, get `SQLITE_BUSY` at once
    /// (the handler is skipped where waiting could deadlock). Those are retried here, with a short
    /// growing pause, so two recorders started together both record.
    private func attempt() -> Result<(MemoIndex, [MemoIndex.FileRow]), IndexOpenProblem> {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(busyTimeoutMilliseconds))
        var pause = Duration.milliseconds(5)
        while true {
            let result = attemptOnce()
            guard case .failure(.sqlite(let error)) = result, error == .busy || error == .locked,
                clock.now + pause < deadline
            else { return result }
            Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18)
            pause = min(pause * 2, .milliseconds(100))
        }
    }

    /// One try at opening and checking the index; the index and its rows.
    private func attemptOnce() -> Result<(MemoIndex, [MemoIndex.FileRow]), IndexOpenProblem> {
        do {
            let database = try SQLiteDatabase(path: indexPath, mode: .readWriteCreate)
            let index = MemoIndex(database: database, folder: folder)
            let rows: [MemoIndex.FileRow]
            do {
                try index.configureForWriting(busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                try index.migrate()
                // Reading every row finds damage in the table's pages now rather than later.
                rows = try index.fileRows()
            } catch let problem as IndexOpenProblem {
                database.close()
                return .failure(problem)
            } catch let error as SQLiteError {
                database.close()
                return .failure(.sqlite(error))
            } catch {
                database.close()
                return .failure(.sqlite(.error))
            }
            return .success((index, rows))
        } catch {
            return .failure(.sqlite(error))
        }
    }

    /// Moves the index (and its WAL) aside as `index.sqlite3.corrupt-YYYYMMDD-HHMMSS`; returns the new path.
    private func setAsideIndex(now: Date) throws(MemoLibraryError) -> String {
        let stamp = ISO8601DateFormatter.string(
            from: now, timeZone: TimeZone(identifier: "UTC") ?? .current,
            formatOptions: [.withFullDate, .withTime])
        var destination = indexPath + ".corrupt-" + stamp.replacingOccurrences(of: ":", with: "")
        var attempt = 1
        while FileSystem.exists(destination) {
            attempt += 1
            destination = indexPath + ".corrupt-" + stamp.replacingOccurrences(of: ":", with: "") + "-\(attempt)"
        }
        let code = FileSystem.move(indexPath, to: destination)
        if code != 0 {
            throw .file(path: indexPath, reason: "cannot move the damaged index aside: " + FileSystem.describe(code), osError: code)
        }
        if FileSystem.exists(indexPath + "-wal") {
            _ = FileSystem.move(indexPath + "-wal", to: destination + "-wal")
        }
        _ = FileSystem.remove(indexPath + "-shm")
        return destination
    }

    /// A read-only folder: the index as it is, or one built in memory when it is missing or unusable.
    private func openReadOnly() throws(MemoLibraryError) -> Opened {
        if FileSystem.exists(indexPath) {
            for mode in [SQLiteDatabase.OpenMode.readOnly, .immutable] {
                guard let database = try? SQLiteDatabase(path: indexPath, mode: mode) else { continue }
                database.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
                let index = MemoIndex(database: database, folder: folder)
                do {
                    try index.checkColumns(allowingOlder: true)
                    let rows = try index.fileRows()
                    return Opened(index: index, isReadOnly: true, needsRebuild: false, setAsidePath: nil, rows: rows)
                } catch {
                    database.close()
                }
            }
        }
        do {
            let database = try SQLiteDatabase(path: ":memory:", mode: .readWriteCreate)
            let index = MemoIndex(database: database, folder: folder)
            try index.migrate()
            return Opened(index: index, isReadOnly: true, needsRebuild: true, setAsidePath: nil)
        } catch let problem as IndexOpenProblem {
            if case .sqlite(let error) = problem { throw .index(error) }
            throw .index(.error)
        } catch {
            throw .index(.error)
        }
    }

    private func mapped(_ error: SQLiteError) -> MemoLibraryError {
        switch error {
        case .busy, .locked: .busy(folder: folder)
        case .readOnly: .readOnly(folder: folder)
        case .cannotOpen, .permission: .folderUnavailable(path: indexPath, reason: error.message)
        default: .index(error)
        }
    }
}
