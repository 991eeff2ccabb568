import CSQLite

/// Facts about the SQLite this binary runs against.
public enum SQLiteLibrary {
    /// SQLite's version, e.g. "3.40.1".
    public static var version: String {
        String(cString: sqlite3_libversion())
    }
}
