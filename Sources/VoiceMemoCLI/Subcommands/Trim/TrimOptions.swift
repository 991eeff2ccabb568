/// `voicememo trim MEMO [--from T] [--to T] [--remove-silences [--silence-below DB] [--keep-pause T]] [--json]`.
public struct TrimOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// `nil`: from the start.
    public var from: Duration?
    /// `nil`: to the end.
    public var to: Duration?
    public var removeSilences: Bool
    /// `--silence-below DB`; `nil` for `SilenceRemoval.defaultThreshold`.
    public var silenceBelow: Double?
    /// `--keep-pause T`; `nil` for `SilenceRemoval.defaultKeptPause`.
    public var keepPause: Duration?
    public var json: Bool

    public init(
        memo: String, from: Duration? = nil, to: Duration? = nil, removeSilences: Bool = false, silenceBelow: Double? = nil,
        keepPause: Duration? = nil, json: Bool = false
    ) {
        self.memo = memo
        self.from = from
        self.to = to
        self.removeSilences = removeSilences
        self.silenceBelow = silenceBelow
        self.keepPause = keepPause
        self.json = json
    }
}
