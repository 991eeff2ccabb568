/// `voicememo search WORDS [--json]`.
public struct SearchOptions: Sendable, Equatable {
    /// What to look for, as given.
    public var words: String
    /// `--json`: an array of hits.
    public var json: Bool

    public init(words: String, json: Bool = false) {
        self.words = words
        self.json = json
    }
}
