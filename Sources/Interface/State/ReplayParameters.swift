/// The talking-app replay as the settings panel (`V`) edits it: off by default; when on, each
/// kept voice take is played back on the playback device as soon as it is saved, `pitchSemitones`
/// up or down (the speed kept), while the detector ignores the input (`record --vox --replay
/// --pitch N` on the command line).
public struct ReplayParameters: Sendable, Hashable {
    /// One editable row of the panel, after voice activation's own.
    public enum Field: Int, Sendable, Hashable, CaseIterable {
        case replay, pitch

        public var label: String {
            switch self {
            case .replay: "Replay"
            case .pitch: "Pitch"
            }
        }

        public var explanation: String {
            switch self {
            case .replay: "play each take back as it ends (talking app)"
            case .pitch: "the replay's pitch in semitones, speed kept"
            }
        }
    }

    public var isOn: Bool
    /// Semitones, whole ones, within `pitchRange`.
    public var pitchSemitones: Double

    /// What the panel allows: `record --pitch`'s range.
    public static let pitchRange: ClosedRange<Double> = -12...12

    /// Off; when turned on, at the take's own pitch.
    public init(isOn: Bool = false, pitchSemitones: Double = 0) {
        self.isOn = isOn
        self.pitchSemitones = pitchSemitones
    }

    /// Moves `field` by `steps`: the switch turns on for a step up and off for a step down;
    /// the pitch moves a semitone a step, clamped to ±12.
    public mutating func adjust(_ field: Field, by steps: Int) {
        switch field {
        case .replay:
            if steps != 0 { isOn = steps > 0 }
        case .pitch:
            let moved = pitchSemitones.rounded() + Double(steps)
            pitchSemitones = min(max(moved, Self.pitchRange.lowerBound), Self.pitchRange.upperBound)
        }
    }

    /// "off", "on", "0 st", "+7 st", "-12 st".
    public func text(_ field: Field) -> String {
        switch field {
        case .replay: isOn ? "on" : "off"
        case .pitch: Self.semitones(pitchSemitones)
        }
    }

    /// "+7 st", "-3 st", "0 st".
    static func semitones(_ value: Double) -> String {
        let whole = Int(value.rounded())
        return (whole > 0 ? "+" : "") + "\(whole) st"
    }

    /// What arming says about the replay: "each take is replayed 7 semitones higher", "each
    /// take is replayed"; `nil` when off.
    var armingText: String? {
        guard isOn else { return nil }
        return "each take is replayed" + (pitchText.map { " " + $0 } ?? "")
    }

    /// "7 semitones higher", "1 semitone lower"; `nil` at the take's own pitch.
    var pitchText: String? {
        let whole = Int(pitchSemitones.rounded())
        guard whole != 0 else { return nil }
        return "\(abs(whole)) semitone\(abs(whole) == 1 ? "" : "s") \(whole > 0 ? "higher" : "lower")"
    }
}
