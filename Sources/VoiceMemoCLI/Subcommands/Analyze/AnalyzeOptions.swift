/// What `voicememo analyze` was asked to do.
public struct AnalyzeOptions: Sendable, Equatable {
    /// The sound file to measure.
    public var path: String
    /// `--json`: one JSON object instead of text.
    public var json: Bool

    public init(path: String, json: Bool = false) {
        self.path = path
        self.json = json
    }
}
