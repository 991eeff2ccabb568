import Foundation
import Vocabulary
import Metering
import SoundFiles

/// The SQLite index of a library: schema set-up, and reading and writing memo rows.
///
/// Paths in the index are relative to the library folder (`name.flac`, `.trash/name.flac`), so a
/// library folder can be moved; `Memo.path` is made absolute on the way out.
final class MemoIndex {
    /// The file name of the index inside the library folder.
    static let fileName = "index.sqlite3"

    let database: SQLiteDatabase
    let folder: String
    /// What memo rows are selected with: every column (`MemoColumn.selectList()`), or those of
    /// an older index opened read-only, NULL for the rest (see `checkColumns(allowingOlder:)`).
    private(set) var columns = MemoColumn.selectList()

    init(database: SQLiteDatabase, folder: String) {
        self.database = database
        self.folder = folder
    }

    /// Sets the connection up for a library on disk: WAL, foreign keys, busy timeout.
    func configureForWriting(busyTimeoutMilliseconds: Int32) throws(SQLiteError) {
        database.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
    }

    /// Brings the schema to `IndexSchema.currentVersion`, one migration per transaction.
    ///
    /// - Throws: `IndexOpenProblem.wrongSchema` for a database that is not ours or newer than this build.
    func migrate() throws(IndexOpenProblem) {
        do {
            var version = try userVersion()
            if version == 0, try hasForeignTables() {
                throw IndexOpenProblem.wrongSchema("tables that are not VoiceMemo's")
            }
            if version > IndexSchema.currentVersion {
                throw IndexOpenProblem.wrongSchema("schema version \(version), newer than this VoiceMemo (\(IndexSchema.currentVersion))")
            }
            while version < IndexSchema.currentVersion {
                try database.execute("BEGIN IMMEDIATE")
                do {
                    // Another process may have migrated while we waited for the lock.
                    let now = try userVersion()
                    if now == version {
                        try database.execute(IndexSchema.migrations[Int(version)])
                        try database.execute("PRAGMA user_version = \(version + 1)")
                    }
                    try database.execute("COMMIT")
                } catch {
                    try? database.execute("ROLLBACK")
                    throw error
                }
                version = try userVersion()
            }
            try checkColumns()
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch let problem as IndexOpenProblem {
            throw problem
        } catch {
            throw .sqlite(SQLiteError(code: 1, message: "\(error)"))
        }
    }

    /// Refuses an index whose `memos` table lacks a column we read.
    ///
    /// - Parameter allowingOlder: accept the columns of an older version, the newest that fits,
    ///   whose rows are then read with the columns added since as NULL (for a read-only library,
    ///   which cannot migrate it).
    func checkColumns(allowingOlder: Bool = false) throws(IndexOpenProblem) {
        let current = MemoColumn.selectList()
        do {
            _ = try database.query("SELECT \(current) FROM memos LIMIT 0")
            columns = current
        } catch {
            if error.meansCorruptFile { throw .sqlite(error) }
            if allowingOlder {
                for version in (1..<IndexSchema.currentVersion).reversed() {
                    let older = MemoColumn.selectList(version: version)
                    if older != current, (try? database.query("SELECT \(older) FROM memos LIMIT 0")) != nil {
                        columns = older
                        return
                    }
                }
            }
            throw .wrongSchema("the memos table lacks columns: \(error.message)")
        }
    }

    private func userVersion() throws(SQLiteError) -> Int64 {
        try database.query("PRAGMA user_version").first?.integer(0) ?? 0
    }

    private func hasForeignTables() throws(SQLiteError) -> Bool {
        let rows = try database.query("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        return (rows.first?.integer(0) ?? 0) > 0
    }

    // MARK: Reading

    /// Every memo in the library (`deleted == false`) or in Recently Deleted, newest first.
    func memos(deleted: Bool) throws(SQLiteError) -> [Memo] {
        let condition = deleted ? "deleted_at IS NOT NULL" : "deleted_at IS NULL"
        var memos: [Memo] = []
        try database.forEachRow(
            "SELECT \(columns) FROM memos WHERE \(condition) ORDER BY created DESC, id DESC"
        ) { statement throws(SQLiteError) in
            memos.append(memo(from: statement))
        }
        return memos
    }

    /// The memo with `id`, deleted or not.
    func memo(id: Int64) throws(SQLiteError) -> Memo? {
        var found: Memo?
        try database.forEachRow("SELECT \(columns) FROM memos WHERE id = ?", [.integer(id)]) {
            statement throws(SQLiteError) in
            found = memo(from: statement)
        }
        return found
    }

    /// What reconciliation needs of every row: id, relative path, state, size.
    func fileRows() throws(SQLiteError) -> [FileRow] {
        var rows: [FileRow] = []
        try database.forEachRow("SELECT id, path, state, size FROM memos") { statement throws(SQLiteError) in
            rows.append(
                FileRow(
                    id: statement.int64(0), path: statement.text(1),
                    state: Memo.State(rawValue: statement.text(2)) ?? .damaged, size: statement.int64(3)))
        }
        return rows
    }

    /// A row as reconciliation sees it.
    struct FileRow {
        var id: Int64
        var path: String
        var state: Memo.State
        var size: Int64
    }

    private func memo(from statement: SQLiteStatement) -> Memo {
        MemoColumn.memo(from: statement, folder: folder)
    }

    // MARK: Writing (callers hold a transaction)

    /// Inserts a memo; `id` 0 lets SQLite choose. Returns the id.
    func insert(_ memo: Memo, relativePath: String) throws(SQLiteError) -> Int64 {
        let row = MemoIndexRow(memo: memo, relativePath: relativePath)
        try database.run(MemoColumn.insertStatement, MemoColumn.values(of: row))
        return database.lastInsertedRowID
    }

    /// Stores what a file holds, and the memo's new state.
    ///
    /// - Parameter statistics: the audio as measured (by its recorder or from the file); `nil`
    ///   keeps the loudness figures the row has. Its envelope replaces the memo's stored one
    ///   (none with it, or `nil`, removes that one: it may be of the file as it was).
    func updateAudio(
        id: Int64, info: SoundFileInfo?, size: Int64, peakDB: Double?, state: Memo.State,
        statistics: ProgrammeStatistics? = nil
    ) throws(SQLiteError) {
        if let statistics {
            try database.run(
                "UPDATE memos SET loudness_lufs = ?, true_peak_dbtp = ?, lra = ?, clips = ? WHERE id = ?",
                [
                    .finite(statistics.loudnessLUFS), .finite(statistics.truePeakDBTP),
                    .finite(statistics.loudnessRange), .integer(statistics.clipCount), .integer(id),
                ])
        }
        if let info {
            try database.run(
                "UPDATE memos SET duration = ?, frames = ?, sample_rate = ?, channels = ?, size = ?, state = ?, "
                    + "peak_db = coalesce(?, peak_db) WHERE id = ?",
                [
                    .real(info.duration), .integer(info.frames), .integer(Int64(info.sampleRate)),
                    .integer(Int64(info.channels)), .integer(size), .text(state.rawValue),
                    peakDB.map { .real($0) } ?? .null, .integer(id),
                ])
        } else {
            try database.run(
                "UPDATE memos SET size = ?, state = ? WHERE id = ?", [.integer(size), .text(state.rawValue), .integer(id)])
        }
        // The audio was read again: its envelope is the one measured with it, or none.
        try replaceEnvelope(memoID: id, with: statistics?.envelope)
    }

    func setState(id: Int64, _ state: Memo.State) throws(SQLiteError) {
        try database.run("UPDATE memos SET state = ? WHERE id = ?", [.text(state.rawValue), .integer(id)])
    }

    func setTitle(id: Int64, _ title: String) throws(SQLiteError) {
        try database.run("UPDATE memos SET title = ? WHERE id = ?", [.text(title), .integer(id)])
    }

    func setTags(id: Int64, _ tags: [String], starred: Bool) throws(SQLiteError) {
        try database.run(
            "UPDATE memos SET tags = ?, starred = ? WHERE id = ?",
            [.text(MemoTag.joined(tags)), .integer(starred ? 1 : 0), .integer(id)])
    }

    func setSize(id: Int64, _ size: Int64) throws(SQLiteError) {
        try database.run("UPDATE memos SET size = ? WHERE id = ?", [.integer(size), .integer(id)])
    }

    /// Moves the row to `relativePath`; `deleted` says when and why it went to Recently Deleted,
    /// `nil` for a memo back in the library.
    func setLocation(id: Int64, relativePath: String, deleted: (at: Date, reason: DeletionReason)?) throws(SQLiteError) {
        try database.run(
            "UPDATE memos SET path = ?, deleted_at = ?, deleted_reason = ? WHERE id = ?",
            [.text(relativePath), deleted.map { .real($0.at.timeIntervalSince1970) } ?? .null,
             deleted?.reason.sqliteValue ?? .null, .integer(id)])
    }

    func remove(id: Int64) throws(SQLiteError) {
        try database.run("DELETE FROM memos WHERE id = ?", [.integer(id)])
    }

    /// Whether a memo's file is at `relativePath` (deleted or not).
    func contains(relativePath: String) throws(SQLiteError) -> Bool {
        try !database.query("SELECT 1 FROM memos WHERE path = ?", [.text(relativePath)]).isEmpty
    }

    /// Whether a memo with `id` exists (deleted or not).
    func contains(id: Int64) throws(SQLiteError) -> Bool {
        try !database.query("SELECT 1 FROM memos WHERE id = ?", [.integer(id)]).isEmpty
    }

    /// The state of memo `id`, if it exists.
    func state(id: Int64) throws(SQLiteError) -> Memo.State? {
        try database.query("SELECT state FROM memos WHERE id = ?", [.integer(id)]).first?.text(0)
            .flatMap(Memo.State.init(rawValue:))
    }

    /// Ids and relative paths of deleted memos deleted before `date` (all of them when `nil`).
    func deleted(before date: Date?) throws(SQLiteError) -> [(id: Int64, path: String)] {
        var rows: [(Int64, String)] = []
        try database.forEachRow(
            "SELECT id, path FROM memos WHERE deleted_at IS NOT NULL AND deleted_at < ?",
            [.real(date?.timeIntervalSince1970 ?? .infinity)]
        ) { statement throws(SQLiteError) in
            rows.append((statement.int64(0), statement.text(1)))
        }
        return rows
    }

    /// Ids and relative paths of memos in state `recording`.
    func recordingRows() throws(SQLiteError) -> [(id: Int64, path: String)] {
        var rows: [(Int64, String)] = []
        try database.forEachRow("SELECT id, path FROM memos WHERE state = 'recording'") { statement throws(SQLiteError) in
            rows.append((statement.int64(0), statement.text(1)))
        }
        return rows
    }
}

/// Why an index file could not be used as it is.
enum IndexOpenProblem: Error {
    case sqlite(SQLiteError)
    case wrongSchema(String)
}
