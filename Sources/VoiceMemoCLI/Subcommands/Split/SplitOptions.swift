/// `voicememo split MEMO AT [--json]`.
public struct SplitOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// Where, from the memo's start.
    public var time: Duration
    public var json: Bool

    public init(memo: String, time: Duration, json: Bool = false) {
        self.memo = memo
        self.time = time
        self.json = json
    }
}
