/// The index's schema, one migration per version (`PRAGMA user_version`).
enum IndexSchema {
    /// Migration `i` takes the schema from version `i` to `i + 1`. Append; never edit a shipped one.
    /// One that adds columns to `memos` is `addingColumns(of: i + 1)`, from their declarations.
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
        """,
        // Version 2: loudness statistics, NULL until measured (rows of version 1 stay unknown).
        """
        ALTER TABLE memos ADD COLUMN loudness_lufs REAL;
        ALTER TABLE memos ADD COLUMN true_peak_dbtp REAL;
        ALTER TABLE memos ADD COLUMN lra REAL;
        ALTER TABLE memos ADD COLUMN clips INTEGER;
        """,
        // Version 3: transcripts. Words with their times, and an FTS5 table of each memo's text
        // (rowid = memo id) for search. A memo's row going also takes its transcript (trigger).
        """
        CREATE TABLE transcripts (
            memo_id INTEGER PRIMARY KEY,
            state TEXT NOT NULL CHECK (state IN ('complete', 'failed')),
            model TEXT NOT NULL,
            frames INTEGER NOT NULL,
            transcribed_at REAL NOT NULL,
            problem TEXT
        );
        CREATE TABLE transcript_words (
            memo_id INTEGER NOT NULL,
            position INTEGER NOT NULL,
            word TEXT NOT NULL,
            start_time REAL NOT NULL,
            end_time REAL NOT NULL,
            PRIMARY KEY (memo_id, position)
        ) WITHOUT ROWID;
        CREATE VIRTUAL TABLE transcript_search USING fts5(text, tokenize = 'unicode61');
        CREATE TRIGGER memos_forget_transcript AFTER DELETE ON memos BEGIN
            DELETE FROM transcripts WHERE memo_id = old.id;
            DELETE FROM transcript_words WHERE memo_id = old.id;
            DELETE FROM transcript_search WHERE rowid = old.id;
        END;
        """,
        // Version 4: markers (seconds into the memo, a label), kept as `b` is pressed. A memo's
        // row going also takes its markers (trigger).
        """
        CREATE TABLE markers (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            memo_id INTEGER NOT NULL,
            time REAL NOT NULL CHECK (time >= 0),
            label TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX markers_by_memo ON markers (memo_id, time);
        CREATE TRIGGER memos_forget_markers AFTER DELETE ON memos BEGIN
            DELETE FROM markers WHERE memo_id = old.id;
        END;
        """,
        // Version 5: peak envelopes (`PeakEnvelope`: a byte per 50 ms block, base64), so a
        // waveform is drawn without reading the audio. A memo's row going also takes its envelope.
        """
        CREATE TABLE envelopes (
            memo_id INTEGER PRIMARY KEY,
            block_frames INTEGER NOT NULL CHECK (block_frames > 0),
            peaks TEXT NOT NULL
        );
        CREATE TRIGGER memos_forget_envelope AFTER DELETE ON memos BEGIN
            DELETE FROM envelopes WHERE memo_id = old.id;
        END;
        """,
        // Version 6: `clips` counts clips (`ClipRule`: runs of three full-scale samples, as the
        // app, `meter` and `analyze` count them); before, it counted full-scale samples. The
        // old counts cannot be turned into runs, so they become unknown ("—").
        """
        UPDATE memos SET clips = NULL;
        """,
        // Version 7: why a memo is in Recently Deleted (`DeletionReason`); NULL in rows deleted
        // before, read as a plain "deleted".
        addingColumns(of: 7),
        // Version 8: tags (`MemoTag`, separated by spaces) and the favourite star; the file's
        // comment holds them too (`MemoComment`), so a rebuilt index keeps them.
        addingColumns(of: 8),
        // Version 9: meetings. A memo's channel roles (`ChannelRoles`: which channels are the
        // microphone's and which the desktop's; NULL for any other memo and for those recorded
        // before), kept in the file's comment too (`MemoComment`), so a rebuilt index keeps them;
        // and who said each transcript word (`Speaker`; NULL when not known: every word of a memo
        // without roles, and of transcripts made before).
        addingColumns(of: 9) + "\nALTER TABLE transcript_words ADD COLUMN speaker TEXT;",
    ]

    /// The version this build writes.
    static var currentVersion: Int64 { Int64(migrations.count) }

    /// A migration that adds the `memos` columns declared (`MemoColumn.all`) with `version`.
    static func addingColumns(of version: Int64) -> String {
        MemoColumn.all.filter { $0.version == version }
            .map { "ALTER TABLE memos ADD COLUMN \($0.name) \($0.declaration);" }.joined(separator: "\n")
    }
}
