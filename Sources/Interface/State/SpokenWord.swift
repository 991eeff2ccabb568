/// One recognised word of a transcript and where it is in its memo, in seconds from the start
/// of the file: the library's `TranscriptWord`, as the transcript view shows it (mapped at the edge).
public struct SpokenWord: Sendable, Hashable {
    public var word: String
    public var start: Double
    public var end: Double

    public init(word: String, start: Double, end: Double) {
        self.word = word
        self.start = start
        self.end = end
    }
}
