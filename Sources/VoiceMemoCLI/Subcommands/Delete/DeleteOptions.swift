/// `voicememo delete MEMO`: move to Recently Deleted.
public struct DeleteOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String

    public init(memo: String) {
        self.memo = memo
    }
}
