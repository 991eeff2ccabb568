import Foundation
import Vocabulary

/// One recognised word and where it is in its memo, in seconds from the start of the file.
public struct TranscriptWord: Sendable, Hashable {
    public var word: String
    public var start: Double
    public var end: Double
    /// Who said it, in a meeting memo (`Memo.channelRoles`); `nil` in any other memo's
    /// transcript and in those made before speakers were kept.
    public var speaker: Speaker?

    public init(word: String, start: Double, end: Double, speaker: Speaker? = nil) {
        self.word = word
        self.start = start
        self.end = end
        self.speaker = speaker
    }
}

/// What the recogniser heard in a memo: its words in order, and what it was made from.
public struct Transcript: Sendable, Hashable {
    public var words: [TranscriptWord]
    /// Which recogniser and model made it (`pocketsphinx:/usr/share/pocketsphinx/model/en-us`).
    public var model: String
    /// The memo's frames when it was transcribed: a file that has changed since makes it stale.
    public var frames: Int64

    public init(words: [TranscriptWord], model: String, frames: Int64) {
        self.words = words
        self.model = model
        self.frames = frames
    }

    /// The words separated by single spaces.
    public var text: String {
        words.map(\.word).joined(separator: " ")
    }
}

/// Where a memo's transcript is.
public enum TranscriptState: String, Sendable, Hashable, CaseIterable {
    /// Never transcribed (or the index was rebuilt since: transcripts are re-made, not restored).
    case none
    /// Transcribed, from the file as it is now.
    case complete
    /// Transcribed, but the file has changed length since.
    case stale
    /// Transcription was tried and failed (`StoredTranscript.problem` says why).
    case failed
}

/// A transcript as the index holds it.
public struct StoredTranscript: Sendable, Hashable {
    public var state: TranscriptState
    public var transcript: Transcript
    public var transcribedAt: Date
    /// Why transcription failed, for `.failed`.
    public var problem: String?
}

/// A memo whose transcript matches a search.
public struct TranscriptHit: Sendable, Hashable {
    public var memo: Memo
    /// When the first matching word starts, in seconds into the memo.
    public var time: Double
    /// The words around it, `…` where the transcript goes on.
    public var snippet: String
    /// The index in the memo's words of that first matching word.
    public var wordIndex: Int
    /// Who said that word, in a meeting memo; `nil` in any other.
    public var speaker: Speaker? = nil
}

/// The index's side of `TranscriptTokens` (Vocabulary).
extension TranscriptTokens {
    /// The FTS5 query for `tokens`: each a quoted string (so no word is read as an operator such
    /// as NOT or NEAR), all required.
    static func matchExpression(_ tokens: [String]) -> String {
        tokens.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " ")
    }
}
