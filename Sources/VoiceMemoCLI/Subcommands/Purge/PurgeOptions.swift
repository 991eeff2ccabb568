/// `voicememo purge [MEMO | --all [--yes]]`: delete for good from Recently Deleted.
public struct PurgeOptions: Sendable, Equatable {
    /// What to purge.
    public enum Target: Sendable, Equatable {
        /// One deleted memo, by id or unique title prefix.
        case memo(String)
        /// Everything in Recently Deleted.
        case all
    }

    public var target: Target
    /// `--yes`: purge everything without asking (needed for `--all` when the input is not a
    /// terminal, since nothing could be asked there).
    public var confirmed: Bool

    public init(target: Target, confirmed: Bool = false) {
        self.target = target
        self.confirmed = confirmed
    }
}
