/// `voicememo star MEMO [--off]` and `voicememo unstar MEMO`.
public struct StarOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// Whether the memo is to be starred (`false`: the star taken away).
    public var starred: Bool

    public init(memo: String, starred: Bool = true) {
        self.memo = memo
        self.starred = starred
    }
}
