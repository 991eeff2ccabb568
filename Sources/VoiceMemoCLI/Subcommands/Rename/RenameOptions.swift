/// `voicememo rename MEMO TITLE`.
public struct RenameOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// The new title, exactly as given.
    public var title: String

    public init(memo: String, title: String) {
        self.memo = memo
        self.title = title
    }
}
