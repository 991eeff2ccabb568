/// The noise alert's parameters, as the settings panel (`V`) edits them: off by default;
/// when on, an alert when the level stays at or above `levelDB` for `hold` seconds.
public struct NoiseAlertParameters: Sendable, Hashable {
    /// One editable row of the panel, after the voice-activation rows.
    public enum Field: Int, Sendable, Hashable, CaseIterable {
        case alert, level, hold

        public var label: String {
            switch self {
            case .alert: "Alert"
            case .level: "Alert at"
            case .hold: "Alert for"
            }
        }

        public var explanation: String {
            switch self {
            case .alert: "noise alert: bell and message when loud"
            case .level: "the level that alerts (! on the meter)"
            case .hold: "how long the level must stay above"
            }
        }
    }

    public var isOn: Bool
    /// dBFS.
    public var levelDB: Double
    /// Seconds.
    public var hold: Double

    /// The values the panel allows: the CLI's `--alert-above` takes any level; the meter shows −90…0.
    static let levelRange: ClosedRange<Double> = -90...0
    static let holdRange: ClosedRange<Double> = 0...60

    /// Off; when turned on, −30 dBFS for 1 s.
    public init(isOn: Bool = false, levelDB: Double = -30, hold: Double = 1) {
        self.isOn = isOn
        self.levelDB = levelDB
        self.hold = hold
    }

    /// Moves `field` by `steps`: the switch turns on for a step up and off for a step down;
    /// the level moves 1 dB a step, the hold time 0.1 s, both clamped to their ranges.
    public mutating func adjust(_ field: Field, by steps: Int) {
        switch field {
        case .alert:
            if steps != 0 { isOn = steps > 0 }
        case .level:
            levelDB = min(max(levelDB.rounded() + Double(steps), Self.levelRange.lowerBound), Self.levelRange.upperBound)
        case .hold:
            let tenths = (hold * 10).rounded() + Double(steps)
            hold = min(max(tenths / 10, Self.holdRange.lowerBound), Self.holdRange.upperBound)
        }
    }

    /// "on", "-30 dB", "1.0 s".
    public func text(_ field: Field) -> String {
        switch field {
        case .alert: isOn ? "on" : "off"
        case .level: "\(Int(levelDB.rounded())) dB"
        case .hold: VoiceParameters.seconds(hold)
        }
    }
}

/// One alert from the running detector (`LevelAlert`), as a tick reports it.
public struct NoiseAlertEvent: Sendable, Hashable {
    /// The level when it fired (200 ms RMS), dBFS.
    public var levelDB: Double
    /// Seconds the level had stayed above.
    public var stayed: Double
    /// When it fired, in seconds of input since the detector was attached.
    public var inputTime: Double

    public init(levelDB: Double, stayed: Double, inputTime: Double) {
        self.levelDB = levelDB
        self.stayed = stayed
        self.inputTime = inputTime
    }
}

/// The running detector's reading at one tick: the alerts since the last, and whether it is
/// armed (disarmed after an alert until the level has fallen below the level − hysteresis).
public struct NoiseAlertSnapshot: Sendable, Hashable {
    public var alerts: [NoiseAlertEvent]
    public var isArmed: Bool

    public init(alerts: [NoiseAlertEvent] = [], isArmed: Bool = true) {
        self.alerts = alerts
        self.isArmed = isArmed
    }
}

/// The noise alert as the app sees it: the parameters chosen, what the detector runs with,
/// and the last alert, which the status line holds while the room stays loud.
public struct NoiseAlertState: Sendable, Hashable {
    public var parameters = NoiseAlertParameters()
    /// What the running detector was set up with; `nil` when none runs.
    public var armedWith: NoiseAlertParameters?
    /// The last alert and when it came on the runner's clock; `nil` before the first or
    /// once the status line has let it go.
    public var last: NoiseAlertEvent?
    public var firedAt: Double?
    /// Whether the detector has re-armed since the last alert (the level fell back).
    public var hasReArmed = true
    /// Alerts since the app started.
    public var count = 0

    /// The status line holds an alert at least this long, and for as long as the level stays up.
    public static let holdTime = 4.0
    /// The message flashes (reverse video every other half second) for this long.
    public static let flashTime = 3.0

    public init() {}

    /// The status line's alert at `time`, while it holds.
    func message(at time: Double) -> String? {
        guard let last, let firedAt, armedWith != nil else { return nil }
        guard !hasReArmed || time < firedAt + Self.holdTime else { return nil }
        let level = Int(last.levelDB.rounded())
        let threshold = Int((armedWith?.levelDB ?? parameters.levelDB).rounded())
        return "NOISE ALERT: the level is \(level) dB, above \(threshold) dB for \(VoiceParameters.seconds(last.stayed))"
            + (count > 1 ? " (alert \(count))" : "")
    }

    /// Whether the alert message is drawn in reverse video at `time` (its flash).
    public func flashes(at time: Double) -> Bool {
        guard let firedAt, time >= firedAt, time < firedAt + Self.flashTime else { return false }
        return Int(((time - firedAt) * 2).rounded(.down)) % 2 == 0
    }
}
