import Audio
/// What `voicememo meter` was asked to do.
public struct MeterOptions: Sendable, Equatable {
    /// `--source S`; `nil` uses the configured source.
    public var source: InputSource?
    /// `--duration T`: stop after this long; `nil` runs until interrupted.
    public var duration: Duration?
    /// `--json`: one JSON object per update, then a summary.
    public var json: Bool
    /// `--loudness`: EBU R128 loudness and true peak as well.
    public var loudness: Bool
    /// `--alert-above DB [--for T] [--exec CMD]`: the noise alert; `nil` without it.
    public var alert: AlertOptions?

    public init(
        source: InputSource? = nil, duration: Duration? = nil, json: Bool = false, loudness: Bool = false,
        alert: AlertOptions? = nil
    ) {
        self.source = source
        self.duration = duration
        self.json = json
        self.loudness = loudness
        self.alert = alert
    }
}

/// The noise alert of `voicememo meter`.
public struct AlertOptions: Sendable, Equatable {
    /// `--alert-above DB`: the level (200 ms RMS, dBFS) that alerts.
    public var thresholdDB: Double
    /// `--for T`: how long the level must stay above; `nil` is at once.
    public var duration: Duration?
    /// `--exec CMD`: the command to run at each alert, as words (never through a shell).
    public var command: [String]?

    public init(thresholdDB: Double, duration: Duration? = nil, command: [String]? = nil) {
        self.thresholdDB = thresholdDB
        self.duration = duration
        self.command = command
    }
}
