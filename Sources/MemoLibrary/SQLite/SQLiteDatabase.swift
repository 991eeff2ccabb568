import CSQLite

/// A value bound to a statement parameter.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// One open SQLite connection: the only place in MemoLibrary that calls SQLite.
///
/// Not thread-safe (a connection per thread or per owner); statements are prepared once and cached.
final class SQLiteDatabase {
    /// How to open the file.
    enum OpenMode {
        /// Read and write, creating the file when missing.
        case readWriteCreate
        /// Read only; the file must exist.
        case readOnly
        /// Read only, assuming nothing else changes the file: for read-only folders, where SQLite
        /// cannot create the WAL index (`-shm`) it needs for an ordinary read-only open.
        case immutable
    }

    let path: String
    private var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (or creates) the database at `path`; `":memory:"` opens a private in-memory database.
    init(path: String, mode: OpenMode) throws(SQLiteError) {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        var target = path
        switch mode {
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable:
            flags |= SQLITE_OPEN_READONLY
            target = "file:" + Self.uriEscaped(path) + "?immutable=1"
        }
        var opened: OpaquePointer?
        let result = sqlite3_open_v2(target, &opened, flags, nil)
        guard result == SQLITE_OK, let opened else {
            let error = SQLiteError(code: result, message: opened.map { String(cString: sqlite3_errmsg($0)) } ?? "")
            sqlite3_close_v2(opened)
            throw error
        }
        sqlite3_extended_result_codes(opened, 1)
        handle = opened
    }

    deinit {
        close()
    }

    /// Finalises every statement and closes the connection. Idempotent.
    func close() {
        for statement in statements.values {
            statement.finalize()
        }
        statements = [:]
        sqlite3_close_v2(handle)
        handle = nil
    }

    /// Waits up to `milliseconds` for another connection's lock before failing with `.busy`.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw lastError(result) }
    }

    /// Runs `sql` (one statement) with `parameters` and returns every row.
    func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> [SQLiteRow] {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(parameters)
        var rows: [SQLiteRow] = []
        while try statement.step() {
            rows.append(statement.row())
        }
        return rows
    }

    /// Runs `sql` (one statement) with `parameters`, calling `body` with each row in place, without copying.
    func forEachRow(
        _ sql: String, _ parameters: [SQLiteValue] = [], _ body: (SQLiteStatement) throws(SQLiteError) -> Void
    ) throws(SQLiteError) {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(parameters)
        while try statement.step() {
            try body(statement)
        }
    }

    /// Runs `sql` (one statement) with `parameters`, ignoring any rows; returns the rows changed.
    @discardableResult
    func run(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(parameters)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// The rowid of the last successful INSERT on this connection.
    var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// - Parameter immediate: take the write lock at the start (`BEGIN IMMEDIATE`), as every writer
    ///   should, so that two writers wait for each other instead of failing at their first write.
    func transaction<Result>(
        immediate: Bool = true, _ body: () throws(MemoLibraryError) -> Result
    ) throws(MemoLibraryError) -> Result {
        do {
            try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        } catch {
            throw .index(error)
        }
        let result: Result
        do {
            result = try body()
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw .index(error)
        }
        return result
    }

    /// The cached statement for `sql`, prepared on first use.
    private func prepared(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        var raw: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard result == SQLITE_OK, let raw else { throw lastError(result) }
        let statement = SQLiteStatement(raw, database: self)
        statements[sql] = statement
        return statement
    }

    /// The error for `result`, with SQLite's text for it.
    func lastError(_ result: Int32) -> SQLiteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? 0
        return SQLiteError(code: extended == 0 ? result : extended, message: message)
    }

    /// `path` with the characters a URI filename treats specially percent-encoded.
    private static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "%"), 0..<0x21, 0x7F...:
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            default:
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return escaped
    }
}

/// A prepared statement of a `SQLiteDatabase`.
final class SQLiteStatement {
    private var handle: OpaquePointer?
    private unowned let database: SQLiteDatabase

    init(_ handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .null: result = sqlite3_bind_null(handle, index)
            case .integer(let integer): result = sqlite3_bind_int64(handle, index, integer)
            case .real(let real): result = sqlite3_bind_double(handle, index, real)
            case .text(let text):
                // Counted bytes, so a title holding NUL is stored whole.
                var utf8 = Array(text.utf8)
                let count = Int32(utf8.count)
                utf8.append(0)
                result = utf8.withUnsafeBufferPointer { bytes in
                    bytes.baseAddress.map { base in
                        base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                            voicememo_sqlite_bind_text_transient(handle, index, $0, count)
                        }
                    } ?? SQLITE_MISUSE
                }
            }
            guard result == SQLITE_OK else { throw database.lastError(result) }
        }
    }

    /// Steps once: `true` with a row ready, `false` when done.
    func step() throws(SQLiteError) -> Bool {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.lastError(result)
        }
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The column as text, NUL bytes included (counted, not C-string).
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The whole current row as values.
    func row() -> SQLiteRow {
        let count = sqlite3_column_count(handle)
        var values: [SQLiteValue] = []
        values.reserveCapacity(Int(count))
        for column in 0..<count {
            switch sqlite3_column_type(handle, column) {
            case SQLITE_INTEGER: values.append(.integer(int64(column)))
            case SQLITE_FLOAT: values.append(.real(double(column)))
            case SQLITE_NULL: values.append(.null)
            default: values.append(.text(text(column)))
            }
        }
        return SQLiteRow(values: values)
    }
}

/// A row copied out of a statement.
struct SQLiteRow {
    var values: [SQLiteValue]

    func integer(_ index: Int) -> Int64? {
        guard index < values.count else { return nil }
        switch values[index] {
        case .integer(let value): return value
        case .real(let value): return Int64(exactly: value.rounded())
        default: return nil
        }
    }

    func text(_ index: Int) -> String? {
        guard index < values.count, case .text(let value) = values[index] else { return nil }
        return value
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
