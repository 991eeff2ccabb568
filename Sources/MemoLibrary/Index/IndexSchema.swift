/// The index's schema, one migration per version (`PRAGMA user_version`).
enum IndexSchema {
    /// Migration `i` takes the schema from version `i` to `i + 1`. Append; never edit a shipped one.
    static let migrations: [String] = [
        """
        CREATE TABLE memos (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            created REAL NOT NULL,
            duration REAL NOT NULL DEFAULT 0,
            frames INTEGER NOT NULL DEFAULT 0,
            sample_rate INTEGER NOT NULL,
            channels INTEGER NOT NULL,
            format TEXT NOT NULL,
            encoding TEXT NOT NULL,
            path TEXT NOT NULL UNIQUE,
            size INTEGER NOT NULL DEFAULT 0,
            peak_db REAL NOT NULL DEFAULT -160,
            state TEXT NOT NULL
                CHECK (state IN ('recording', 'complete', 'recovered', 'missing', 'damaged')),
            deleted_at REAL
        );
        CREATE INDEX memos_by_created ON memos (deleted_at, created DESC, id DESC);
        CREATE INDEX memos_by_state ON memos (state);
        """
    ]

    /// The version this build writes.
    static var currentVersion: Int64 { Int64(migrations.count) }

    /// The columns, in the order `MemoRow` reads them.
    static let columns =
        "id, title, created, duration, frames, sample_rate, channels, format, encoding, path, size, peak_db, state, deleted_at"
}
