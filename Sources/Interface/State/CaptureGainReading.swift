import Metering

/// The open input's capture control as the app shows it (the Interface's own copy of
/// `Audio.CaptureGain`, mapped at the edge).
public struct CaptureGainReading: Sendable, Hashable {
    /// The mixer control, e.g. `Capture`.
    public var control: String
    /// 0–100 of the control's range.
    public var percent: Double
    /// dB, when the control has a dB scale.
    public var decibels: Double?
    /// Whether capture is switched on; `nil` when the control has no switch.
    public var isOn: Bool?

    public init(control: String, percent: Double, decibels: Double?, isOn: Bool?) {
        self.control = control
        self.percent = percent
        self.decibels = decibels
        self.isOn = isOn
    }

    /// "Capture -6.0 dB", "Capture 40 %", then ", switched off (M switches it on)" when off.
    public var text: String {
        let value = decibels.map { DisplayFormat.decibels(Float($0)) } ?? "\(Int(percent.rounded())) %"
        let name = control == "Capture" ? "Capture" : "Capture (\(control))"
        return "\(name) \(value)" + (isOn == false ? ", switched off (M switches it on)" : "")
    }
}

/// What `<`, `>` and `M` ask of the capture control.
public enum CaptureGainChange: Sendable, Hashable {
    /// 1 dB down (or 1 % of the range where there is no dB scale).
    case down
    /// 1 dB up (or 1 %).
    case up
    /// The capture switch flipped (mute / unmute).
    case toggleSwitch
}
