/// `voicememo list [--json] [--deleted] [--no-wait] [--tag TAG]... [--starred] [--filter QUERY]`.
public struct ListOptions: Sendable, Equatable {
    /// `--json`: an array of memos.
    public var json: Bool
    /// `--deleted`: list Recently Deleted instead.
    public var deleted: Bool
    /// `--no-wait`: list at once, leaving killed recordings that need an encode for later.
    public var noWait: Bool
    /// `--tag TAG`, repeatable: only memos with every one of these tags (lower case).
    public var tags: [String]
    /// `--starred`: only starred memos.
    public var starred: Bool
    /// `--filter QUERY`: only the memos the app's `/` lists for it (`MemoQuery`).
    public var filter: String?

    public init(
        json: Bool = false, deleted: Bool = false, noWait: Bool = false, tags: [String] = [], starred: Bool = false,
        filter: String? = nil
    ) {
        self.filter = filter
        self.tags = tags
        self.starred = starred
        self.noWait = noWait
        self.json = json
        self.deleted = deleted
    }
}
