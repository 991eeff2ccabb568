/// `voicememo transcribe MEMO [--json] [--again]`.
public struct TranscribeOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// `--json`: one object with the words and their times.
    public var json: Bool
    /// `--again`: transcribe even when a current transcript is stored.
    public var again: Bool

    public init(memo: String, json: Bool = false, again: Bool = false) {
        self.memo = memo
        self.json = json
        self.again = again
    }
}
