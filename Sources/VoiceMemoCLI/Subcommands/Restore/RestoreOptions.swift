/// `voicememo restore MEMO`: bring back from Recently Deleted.
public struct RestoreOptions: Sendable, Equatable {
    /// An id or a unique title prefix, among the deleted memos.
    public var memo: String

    public init(memo: String) {
        self.memo = memo
    }
}
