/// A failure reported by SQLite: its result code and its own text (`sqlite3_errmsg`).
///
/// Compare with the named statics (`catch let error where error == .busy` or `~=`): they match on the
/// primary result code, so `SQLITE_BUSY_SNAPSHOT` is `.busy` too.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code.
    public var code: Int32
    /// SQLite's message for the failure, from `sqlite3_errmsg` (or `sqlite3_errstr`).
    public var message: String

    public init(code: Int32, message: String = "") {
        self.code = code
        self.message = message
    }

    /// The primary result code (the low 8 bits of the extended code).
    public var primaryCode: Int32 { code & 0xFF }

    public var description: String {
        message.isEmpty ? "SQLite error \(code)" : "\(message) (SQLite error \(code))"
    }

    /// Equal when the primary result codes are equal.
    public static func == (lhs: SQLiteError, rhs: SQLiteError) -> Bool {
        lhs.primaryCode == rhs.primaryCode
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryCode)
    }

    /// Lets `catch SQLiteError.busy` style patterns match on the primary code.
    public static func ~= (pattern: SQLiteError, value: any Error) -> Bool {
        guard let value = value as? SQLiteError else { return false }
        return pattern == value
    }

    /// Generic error. The corresponding C code is `SQLITE_ERROR`.
    public static let error = SQLiteError(code: 1)
    /// Access permission denied. The corresponding C code is `SQLITE_PERM`.
    public static let permission = SQLiteError(code: 3)
    /// The database file is locked by another connection. The corresponding C code is `SQLITE_BUSY`.
    public static let busy = SQLiteError(code: 5)
    /// A table is locked within this connection. The corresponding C code is `SQLITE_LOCKED`.
    public static let locked = SQLiteError(code: 6)
    /// Out of memory. The corresponding C code is `SQLITE_NOMEM`.
    public static let noMemory = SQLiteError(code: 7)
    /// A write to a read-only database. The corresponding C code is `SQLITE_READONLY`.
    public static let readOnly = SQLiteError(code: 8)
    /// Disk I/O failed. The corresponding C code is `SQLITE_IOERR`.
    public static let ioError = SQLiteError(code: 10)
    /// The database file is malformed. The corresponding C code is `SQLITE_CORRUPT`.
    public static let corrupt = SQLiteError(code: 11)
    /// The disk is full. The corresponding C code is `SQLITE_FULL`.
    public static let full = SQLiteError(code: 13)
    /// The database file cannot be opened. The corresponding C code is `SQLITE_CANTOPEN`.
    public static let cannotOpen = SQLiteError(code: 14)
    /// The schema changed under a prepared statement. The corresponding C code is `SQLITE_SCHEMA`.
    public static let schema = SQLiteError(code: 17)
    /// A constraint (unique, foreign key, not null) failed. The corresponding C code is `SQLITE_CONSTRAINT`.
    public static let constraint = SQLiteError(code: 19)
    /// A value of the wrong type. The corresponding C code is `SQLITE_MISMATCH`.
    public static let mismatch = SQLiteError(code: 20)
    /// The library was used wrongly. The corresponding C code is `SQLITE_MISUSE`.
    public static let misuse = SQLiteError(code: 21)
    /// The file is not a database. The corresponding C code is `SQLITE_NOTADB`.
    public static let notADatabase = SQLiteError(code: 26)

    /// Whether the file itself is damaged or not a database (the index should be set aside and rebuilt).
    public var meansCorruptFile: Bool {
        self == .corrupt || self == .notADatabase
    }
}
