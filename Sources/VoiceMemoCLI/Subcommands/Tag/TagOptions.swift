/// `voicememo tag MEMO [+TAG | -TAG | TAG]...`.
public struct TagOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// The words after MEMO, as given (`+work`, `-draft`); none prints the tags.
    public var changes: [String]

    public init(memo: String, changes: [String] = []) {
        self.memo = memo
        self.changes = changes
    }
}
