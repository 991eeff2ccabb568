import Foundation
import Vocabulary

/// Transcripts: storing what the recogniser heard, reading it back, and searching by it.
///
/// Transcripts live only in the index. A rebuilt index has none: they are made again from the
/// files (docs/ARCHITECTURE.md, "Transcripts"), as `memosToTranscribe()` lists them.
extension MemoLibrary {
    /// Stores `transcript` as memo `id`'s, replacing any earlier one.
    ///
    /// - Throws: `.notFound` when the memo is gone (purged while it was being transcribed):
    ///   nothing is stored. `.readOnly` in a read-only library.
    public func storeTranscript(_ transcript: Transcript, forMemo id: Int64, at date: Date) throws(MemoLibraryError) {
        try write { () throws(MemoLibraryError) in
            _ = try existing(id)
            try indexCall { () throws(SQLiteError) in
                try index.replaceTranscript(id: id, state: .complete, transcript: transcript, problem: nil, at: date)
            }
        }
    }

    /// Records that transcribing memo `id` failed and why, so a background job does not retry
    /// it on every start; `frames` is the memo's length when it was tried.
    public func storeTranscriptionFailure(
        forMemo id: Int64, problem: String, model: String, frames: Int64, at date: Date
    ) throws(MemoLibraryError) {
        try write { () throws(MemoLibraryError) in
            _ = try existing(id)
            try indexCall { () throws(SQLiteError) in
                try index.replaceTranscript(
                    id: id, state: .failed, transcript: Transcript(words: [], model: model, frames: frames),
                    problem: problem, at: date)
            }
        }
    }

    /// Memo `memo`'s transcript, or `nil` when it has none.
    public func transcript(of memo: Memo) throws(MemoLibraryError) -> StoredTranscript? {
        try indexCall { () throws(SQLiteError) in
            guard try index.hasTranscriptTables() else { return nil }
            return try index.transcript(id: memo.id, memoFrames: memo.frames)
        }
    }

    /// The transcript state of each memo id that has one; any other memo's is `.none`.
    public func transcriptStates() throws(MemoLibraryError) -> [Int64: TranscriptState] {
        try indexCall { () throws(SQLiteError) in
            guard try index.hasTranscriptTables() else { return [:] }
            return try index.transcriptStates()
        }
    }

    /// The memos a background job should transcribe: in the library, recorded and readable
    /// (`complete` or `recovered`), with no transcript or a stale one; oldest first.
    public func memosToTranscribe() throws(MemoLibraryError) -> [Memo] {
        let states = try transcriptStates()
        return try memos().reversed().filter { memo in
            guard memo.state == .complete || memo.state == .recovered, memo.frames > 0 else { return false }
            let state = states[memo.id] ?? .none
            return state == .none || state == .stale
        }
    }

    /// The memos in the library whose transcripts hold every word of `query` (case and
    /// punctuation ignored), best match first, each with the time of its first matching word
    /// and a snippet around it. An empty query (no letters or digits) finds nothing.
    ///
    /// - Parameter lastWordIsPrefix: the last word also matches words it begins (`leis`
    ///   finds "leisure"): for a query being typed, as the app's `/` filter is.
    public func searchTranscripts(_ query: String, lastWordIsPrefix: Bool = false) throws(MemoLibraryError) -> [TranscriptHit] {
        let tokens = TranscriptTokens.tokens(of: query)
        return try indexCall { () throws(SQLiteError) -> [TranscriptHit] in
            guard !tokens.isEmpty, try index.hasTranscriptTables() else { return [] }
            var hits: [TranscriptHit] = []
            for id in try index.transcriptMatches(tokens: tokens, lastIsPrefix: lastWordIsPrefix) {
                guard let memo = try index.memo(id: id),
                    let stored = try index.transcript(id: id, memoFrames: memo.frames),
                    let wordIndex = Self.firstMatch(of: tokens, in: stored.transcript.words, lastIsPrefix: lastWordIsPrefix)
                else { continue }
                let words = stored.transcript.words
                hits.append(
                    TranscriptHit(
                        memo: memo, time: words[wordIndex].start,
                        snippet: Self.snippet(words, around: wordIndex, length: tokens.count), wordIndex: wordIndex,
                        speaker: words[wordIndex].speaker))
            }
            return hits
        }
    }

    /// The index of the word where `tokens` first occur in a row; failing that, of the first
    /// word holding any of them. With `lastIsPrefix` the last token matches any word it begins.
    static func firstMatch(of tokens: [String], in words: [TranscriptWord], lastIsPrefix: Bool = false) -> Int? {
        var stream: [(token: String, word: Int)] = []
        for (index, word) in words.enumerated() {
            for token in TranscriptTokens.tokens(of: word.word) { stream.append((token, index)) }
        }
        func matches(_ token: String, _ position: Int) -> Bool {
            lastIsPrefix && position == tokens.count - 1 ? token.hasPrefix(tokens[position]) : token == tokens[position]
        }
        if stream.count >= tokens.count {
            for start in 0...(stream.count - tokens.count)
            where (0..<tokens.count).allSatisfy({ matches(stream[start + $0].token, $0) }) {
                return stream[start].word
            }
        }
        return stream.first(where: { entry in tokens.indices.contains { matches(entry.token, $0) } })?.word
    }

    /// Up to 4 words before the hit and 6 after it.
    static func snippet(_ words: [TranscriptWord], around index: Int, length: Int) -> String {
        let from = max(0, index - 4)
        let to = min(words.count, index + max(1, length) + 6)
        var text = words[from..<to].map(\.word).joined(separator: " ")
        if from > 0 { text = "… " + text }
        if to < words.count { text += " …" }
        return text
    }
}
