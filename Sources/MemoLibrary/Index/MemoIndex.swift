import Foundation
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
    /// What rows are read with: `IndexSchema.columns`, or `IndexSchema.olderColumns` for an
    /// older index opened read-only (see `checkColumns(allowingOlder:)`).
    private(set) var columns = IndexSchema.columns

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
    /// - Parameter allowingOlder: accept a version-1 index, whose rows are then read with the
    ///   newer columns as NULL (for a read-only library, which cannot migrate it).
    func checkColumns(allowingOlder: Bool = false) throws(IndexOpenProblem) {
        do {
            _ = try database.query("SELECT \(IndexSchema.columns) FROM memos LIMIT 0")
            columns = IndexSchema.columns
        } catch {
            if error.meansCorruptFile { throw .sqlite(error) }
            if allowingOlder, (try? database.query("SELECT \(IndexSchema.olderColumns) FROM memos LIMIT 0")) != nil {
                columns = IndexSchema.olderColumns
                return
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
        let format = FileFormat(rawValue: statement.text(7)) ?? .wav
        let relativePath = statement.text(9)
        return Memo(
            id: statement.int64(0), title: statement.text(1),
            created: Date(timeIntervalSince1970: statement.double(2)),
            duration: statement.double(3), frames: statement.int64(4),
            sampleRate: Int(statement.int64(5)), channels: Int(statement.int64(6)),
            format: format, encoding: Encoding(rawValue: statement.text(8)) ?? format.defaultEncoding,
            path: folder + "/" + relativePath, size: statement.int64(10), peakDB: statement.double(11),
            state: Memo.State(rawValue: statement.text(12)) ?? .damaged,
            deletedAt: statement.isNull(13) ? nil : Date(timeIntervalSince1970: statement.double(13)),
            loudnessLUFS: statement.isNull(14) ? nil : statement.double(14),
            truePeakDBTP: statement.isNull(15) ? nil : statement.double(15),
            loudnessRange: statement.isNull(16) ? nil : statement.double(16),
            clipCount: statement.isNull(17) ? nil : statement.int64(17))
    }

    // MARK: Writing (callers hold a transaction)

    /// Inserts a memo; `id` 0 lets SQLite choose. Returns the id.
    func insert(_ memo: Memo, relativePath: String) throws(SQLiteError) -> Int64 {
        try database.run(
            "INSERT INTO memos (id, title, created, duration, frames, sample_rate, channels, format, encoding, path, size, peak_db, state, deleted_at, "
                + "loudness_lufs, true_peak_dbtp, lra, clips) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                memo.id > 0 ? .integer(memo.id) : .null, .text(memo.title),
                .real(memo.created.timeIntervalSince1970), .real(memo.duration), .integer(memo.frames),
                .integer(Int64(memo.sampleRate)), .integer(Int64(memo.channels)), .text(memo.format.rawValue),
                .text(memo.encoding.rawValue), .text(relativePath), .integer(memo.size), .real(memo.peakDB),
                .text(memo.state.rawValue), memo.deletedAt.map { .real($0.timeIntervalSince1970) } ?? .null,
                Self.real(memo.loudnessLUFS), Self.real(memo.truePeakDBTP), Self.real(memo.loudnessRange),
                memo.clipCount.map { .integer($0) } ?? .null,
            ])
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
                    Self.real(statistics.loudnessLUFS), Self.real(statistics.truePeakDBTP),
                    Self.real(statistics.loudnessRange), .integer(statistics.clipCount), .integer(id),
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

    /// A finite number, or NULL.
    private static func real(_ value: Double?) -> SQLiteValue {
        guard let value, value.isFinite else { return .null }
        return .real(value)
    }

    func setState(id: Int64, _ state: Memo.State) throws(SQLiteError) {
        try database.run("UPDATE memos SET state = ? WHERE id = ?", [.text(state.rawValue), .integer(id)])
    }

    func setTitle(id: Int64, _ title: String) throws(SQLiteError) {
        try database.run("UPDATE memos SET title = ? WHERE id = ?", [.text(title), .integer(id)])
    }

    func setSize(id: Int64, _ size: Int64) throws(SQLiteError) {
        try database.run("UPDATE memos SET size = ? WHERE id = ?", [.integer(size), .integer(id)])
    }

    func setLocation(id: Int64, relativePath: String, deletedAt: Date?) throws(SQLiteError) {
        try database.run(
            "UPDATE memos SET path = ?, deleted_at = ? WHERE id = ?",
            [.text(relativePath), deletedAt.map { .real($0.timeIntervalSince1970) } ?? .null, .integer(id)])
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
