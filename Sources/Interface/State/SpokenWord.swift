import Vocabulary

/// One recognised word of a transcript and where it is in its memo, in seconds from the start
/// of the file: the library's `TranscriptWord`, as the transcript view shows it (mapped at the edge).
public struct SpokenWord: Sendable, Hashable {
    public var word: String
    public var start: Double
    public var end: Double
    /// Who said it, in a meeting memo's transcript; `nil` in any other.
    public var speaker: Speaker?

    public init(word: String, start: Double, end: Double, speaker: Speaker? = nil) {
        self.word = word
        self.start = start
        self.end = end
        self.speaker = speaker
    }
}
