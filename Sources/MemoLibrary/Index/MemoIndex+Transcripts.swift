import Foundation
import Vocabulary

/// Transcripts in the index (schema version 3): `transcripts` (one row per transcribed memo),
/// `transcript_words` (its words with times, and from version 9 who said each) and
/// `transcript_search` (FTS5, rowid = memo id).
extension MemoIndex {
    /// Whether the index has the transcript tables: a read-only library may be reading an
    /// index written before version 3, which it cannot migrate.
    func hasTranscriptTables() throws(SQLiteError) -> Bool {
        try !database.query("SELECT 1 FROM sqlite_master WHERE name = 'transcript_search'").isEmpty
    }

    /// Replaces memo `id`'s transcript (callers hold a transaction).
    func replaceTranscript(
        id: Int64, state: TranscriptState, transcript: Transcript, problem: String?, at date: Date
    ) throws(SQLiteError) {
        try removeTranscript(id: id)
        try database.run(
            "INSERT INTO transcripts (memo_id, state, model, frames, transcribed_at, problem) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .integer(id), .text(state.rawValue), .text(transcript.model), .integer(transcript.frames),
                .real(date.timeIntervalSince1970), problem.map { .text($0) } ?? .null,
            ])
        for (position, word) in transcript.words.enumerated() {
            try database.run(
                "INSERT INTO transcript_words (memo_id, position, word, start_time, end_time, speaker) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    .integer(id), .integer(Int64(position)), .text(word.word), .real(word.start), .real(word.end),
                    word.speaker.map { .text($0.rawValue) } ?? .null,
                ])
        }
        if !transcript.words.isEmpty {
            try database.run(
                "INSERT INTO transcript_search (rowid, text) VALUES (?, ?)", [.integer(id), .text(transcript.text)])
        }
    }

    /// Whether the words have their speaker (version 9): a read-only library may be reading an
    /// older index, whose words are then read without one.
    private func hasSpeakerColumn() throws(SQLiteError) -> Bool {
        try !database.query("SELECT 1 FROM pragma_table_info('transcript_words') WHERE name = 'speaker'").isEmpty
    }

    func removeTranscript(id: Int64) throws(SQLiteError) {
        try database.run("DELETE FROM transcripts WHERE memo_id = ?", [.integer(id)])
        try database.run("DELETE FROM transcript_words WHERE memo_id = ?", [.integer(id)])
        try database.run("DELETE FROM transcript_search WHERE rowid = ?", [.integer(id)])
    }

    /// Memo `id`'s transcript row and words, if it has been transcribed; `memoFrames` tells a
    /// stale transcript from a current one.
    func transcript(id: Int64, memoFrames: Int64) throws(SQLiteError) -> StoredTranscript? {
        guard let row = try database.query(
            "SELECT state, model, frames, transcribed_at, problem FROM transcripts WHERE memo_id = ?", [.integer(id)]
        ).first else { return nil }
        var words: [TranscriptWord] = []
        let speaker = try hasSpeakerColumn() ? "speaker" : "NULL"
        try database.forEachRow(
            "SELECT word, start_time, end_time, \(speaker) FROM transcript_words WHERE memo_id = ? ORDER BY position",
            [.integer(id)]
        ) { statement throws(SQLiteError) in
            words.append(TranscriptWord(
                word: statement.text(0), start: statement.double(1), end: statement.double(2),
                speaker: statement.isNull(3) ? nil : Speaker(rawValue: statement.text(3))))
        }
        let frames = row.integer(2) ?? 0
        let transcribedAt: Double
        if case .real(let value) = row.values[3] { transcribedAt = value } else { transcribedAt = Double(row.integer(3) ?? 0) }
        let state = Self.state(stored: row.text(0), frames: frames, memoFrames: memoFrames)
        return StoredTranscript(
            state: state, transcript: Transcript(words: words, model: row.text(1) ?? "", frames: frames),
            transcribedAt: Date(timeIntervalSince1970: transcribedAt), problem: row.text(4))
    }

    /// The transcript state of every memo that has a transcript row; others are `.none`.
    func transcriptStates() throws(SQLiteError) -> [Int64: TranscriptState] {
        var states: [Int64: TranscriptState] = [:]
        try database.forEachRow(
            "SELECT t.memo_id, t.state, t.frames, m.frames FROM transcripts t JOIN memos m ON m.id = t.memo_id"
        ) { statement throws(SQLiteError) in
            states[statement.int64(0)] = Self.state(
                stored: statement.text(1), frames: statement.int64(2), memoFrames: statement.int64(3))
        }
        return states
    }

    /// Ids of the memos in the library (not deleted) whose transcripts match every token, best
    /// match first (FTS5's bm25 rank), then newest.
    func transcriptMatches(tokens: [String], lastIsPrefix: Bool = false) throws(SQLiteError) -> [Int64] {
        guard !tokens.isEmpty else { return [] }
        var ids: [Int64] = []
        try database.forEachRow(
            "SELECT m.id FROM transcript_search s JOIN memos m ON m.id = s.rowid "
                + "WHERE transcript_search MATCH ? AND m.deleted_at IS NULL ORDER BY s.rank, m.created DESC, m.id DESC",
            [.text(TranscriptTokens.matchExpression(tokens) + (lastIsPrefix ? "*" : ""))]
        ) { statement throws(SQLiteError) in
            ids.append(statement.int64(0))
        }
        return ids
    }

    private static func state(stored: String?, frames: Int64, memoFrames: Int64) -> TranscriptState {
        switch stored {
        case "complete": frames == memoFrames ? .complete : .stale
        case "failed": .failed
        default: .none
        }
    }
}
