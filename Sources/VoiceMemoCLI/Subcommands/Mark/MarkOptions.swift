/// `voicememo mark MEMO AT [--label TEXT]`.
public struct MarkOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// Where, from the memo's start.
    public var time: Duration
    public var label: String?

    public init(memo: String, time: Duration, label: String? = nil) {
        self.memo = memo
        self.time = time
        self.label = label
    }
}
