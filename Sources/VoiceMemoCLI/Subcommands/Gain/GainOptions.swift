import Audio

/// A change `voicememo gain` was asked to make to the capture control.
public enum GainChange: Sendable, Equatable {
    /// `+3dB`, `-3dB`: by that much.
    case byDecibels(Double)
    /// `=-6dB`: to that level.
    case toDecibels(Double)
    /// `+5%`, `-5%`: by that many points of the control's range.
    case byPercent(Double)
    /// `50%`: to that point of the range.
    case toPercent(Double)
    case mute
    case unmute
    case toggle
}

/// What `voicememo gain` was asked to do.
public struct GainOptions: Sendable, Equatable {
    /// The input whose capture control is meant (an ALSA device).
    public var source: InputSource?
    /// `nil` prints the control's state.
    public var change: GainChange?
    public var json: Bool

    public init(source: InputSource? = nil, change: GainChange? = nil, json: Bool = false) {
        self.source = source
        self.change = change
        self.json = json
    }
}
