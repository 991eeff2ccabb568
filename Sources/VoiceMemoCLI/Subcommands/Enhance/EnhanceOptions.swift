/// `voicememo enhance MEMO [--json]`.
public struct EnhanceOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    public var json: Bool

    public init(memo: String, json: Bool = false) {
        self.memo = memo
        self.json = json
    }
}
