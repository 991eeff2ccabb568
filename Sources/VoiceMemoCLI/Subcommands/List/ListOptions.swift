/// `voicememo list [--json] [--deleted] [--no-wait]`.
public struct ListOptions: Sendable, Equatable {
    /// `--json`: an array of memos.
    public var json: Bool
    /// `--deleted`: list Recently Deleted instead.
    public var deleted: Bool
    /// `--no-wait`: list at once, leaving killed recordings that need an encode for later.
    public var noWait: Bool

    public init(json: Bool = false, deleted: Bool = false, noWait: Bool = false) {
        self.noWait = noWait
        self.json = json
        self.deleted = deleted
    }
}
