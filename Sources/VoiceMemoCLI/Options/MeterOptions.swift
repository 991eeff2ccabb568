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

    public init(source: InputSource? = nil, duration: Duration? = nil, json: Bool = false, loudness: Bool = false) {
        self.source = source
        self.duration = duration
        self.json = json
        self.loudness = loudness
    }
}
