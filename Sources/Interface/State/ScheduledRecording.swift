/// `voicememo --at TIME [--duration T]`: a recording the app starts by itself at a wall-clock
/// time, and (with a duration) stops and saves after that much recorded audio.
public struct ScheduledRecording: Sendable, Equatable {
    /// When it starts, in seconds since 1970.
    public var start: Double
    /// Seconds of recorded audio after which it stops; `nil`: it records until `s`.
    public var duration: Double?
    /// The start as the header shows it: `14:00`, `12-08 09:30`.
    public var label: String

    public init(start: Double, duration: Double?, label: String) {
        self.start = start
        self.duration = duration
        self.label = label
    }
}
