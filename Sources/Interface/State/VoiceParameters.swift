/// The voice-activation parameters a person edits in the settings panel (`V`) and in the
/// config file: start threshold, silence hang time, minimum take, pre-roll; and the panel's
/// talking-app replay (`replay`, not in the config file).
public struct VoiceParameters: Sendable, Hashable {
    /// One editable parameter, in the panel's order.
    public enum Field: Int, Sendable, Hashable, CaseIterable {
        case threshold, silence, minimum, preRoll

        /// The panel's label.
        public var label: String {
            switch self {
            case .threshold: "Threshold"
            case .silence: "Silence"
            case .minimum: "Minimum"
            case .preRoll: "Pre-roll"
            }
        }

        /// What it does, for the panel.
        public var explanation: String {
            switch self {
            case .threshold: "a take starts when the level reaches this"
            case .silence: "this much silence ends a take"
            case .minimum: "takes with less sound are not kept"
            case .preRoll: "audio from before the start, kept"
            }
        }

        /// Steps of ←/→ (or -/+) per unit: 1 dB, 0.1 s. Values are kept on this grid
        /// (divided, not multiplied, so 21 steps of 0.1 s read exactly 2.1).
        var stepsPerUnit: Double {
            switch self {
            case .threshold: 1
            case .silence, .minimum, .preRoll: 10
            }
        }

        /// The values the panel allows (inside what the engine accepts).
        var range: ClosedRange<Double> {
            switch self {
            case .threshold: -90...0
            case .silence: 0.1...30
            case .minimum: 0...30
            case .preRoll: 0...10
            }
        }
    }

    /// dBFS.
    public var thresholdDB: Double
    /// Seconds.
    public var silence: Double
    /// Seconds.
    public var minimum: Double
    /// Seconds.
    public var preRoll: Double
    /// Each kept take played back as it ends; changing it alone does not re-arm the detector.
    public var replay: ReplayParameters
    /// Whether a take needs the speech detector to hear speech as well as the level (the
    /// config file's `vox.level_only = on` turns it off); not a panel field.
    public var listensForSpeech: Bool

    /// The product's defaults: −40 dBFS, 3 s, 0.5 s, 0.3 s, listening for speech, no replay (those of the engine's
    /// `VoiceActivationSettings`).
    public init(
        thresholdDB: Double = -40, silence: Double = 3, minimum: Double = 0.5, preRoll: Double = 0.3,
        listensForSpeech: Bool = true, replay: ReplayParameters = ReplayParameters()
    ) {
        self.listensForSpeech = listensForSpeech
        self.thresholdDB = thresholdDB
        self.silence = silence
        self.minimum = minimum
        self.preRoll = preRoll
        self.replay = replay
    }

    /// Whether `other` arms the detector the same way (the replay aside).
    public func detectsLike(_ other: VoiceParameters) -> Bool {
        var other = other
        other.replay = replay
        return other == self
    }

    public subscript(field: Field) -> Double {
        get {
            switch field {
            case .threshold: thresholdDB
            case .silence: silence
            case .minimum: minimum
            case .preRoll: preRoll
            }
        }
        set {
            switch field {
            case .threshold: thresholdDB = newValue
            case .silence: silence = newValue
            case .minimum: minimum = newValue
            case .preRoll: preRoll = newValue
            }
        }
    }

    /// Moves `field` by `steps` steps, on the step grid, clamped to its range.
    public mutating func adjust(_ field: Field, by steps: Int) {
        let grid = (self[field] * field.stepsPerUnit).rounded() + Double(steps)
        self[field] = min(max(grid / field.stepsPerUnit, field.range.lowerBound), field.range.upperBound)
    }

    /// "-40 dB", "2.0 s".
    public func text(_ field: Field) -> String {
        switch field {
        case .threshold: "\(Int(thresholdDB.rounded())) dB"
        default: Self.seconds(self[field])
        }
    }

    /// "1.2 s", with one decimal.
    public static func seconds(_ value: Double) -> String {
        let tenths = Int((max(value, 0) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
