/// `voicememo mark MEMO AT [--label TEXT]`, or `voicememo mark [--label TEXT]` for the running recording.
public struct MarkOptions: Sendable, Equatable {
    /// An id or a unique title prefix; `nil` for the running recording.
    public var memo: String?
    /// Where, from the memo's start; `nil` for the running recording's current position.
    public var time: Duration?
    public var label: String?

    public init(memo: String? = nil, time: Duration? = nil, label: String? = nil) {
        self.memo = memo
        self.time = time
        self.label = label
    }
}
