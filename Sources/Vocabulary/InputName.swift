/// Where audio comes from, by name: what `--source` takes, the header shows, the input picker
/// offers and an effect selects.
///
/// Its text form (`alsa:NAME`, `tone:FREQ@DBFS`, `file:PATH`, `url:URL`, `pulse:A+pulse:B`) is written by
/// `description` and split by ``parts(of:)``, nowhere else: the app's state and effects carry
/// this value, so no one re-parses a name they were handed, or strips `alsa:` by hand.
public enum InputName: Sendable, Hashable, CustomStringConvertible {
    /// An ALSA PCM by name, as `arecord -D` takes it.
    case alsa(device: String)
    /// A source of the sound server (PulseAudio, or PipeWire's pipewire-pulse) by the server's
    /// name for it; "default" is the server's default source.
    case pulse(source: String)
    /// A sine in every channel with its peak at `peakDBFS`.
    case tone(frequency: Double, peakDBFS: Double)
    /// A sound file played in as the microphone.
    case file(path: String)
    /// An http(s) network stream played in as the microphone.
    case url(String)
    /// Two sources of the sound server recorded as the channels of one memo, `first`'s
    /// channels then `second`'s (`pulse:A+pulse:B`; ``meeting`` is the default source and the
    /// default sink's monitor).
    case joined(first: String, second: String)

    /// `alsa:default`: ALSA's default device, the input when nothing names one and no sound
    /// server answers.
    public static let `default` = InputName.alsa(device: "default")

    /// The text form, as `--source` takes it: "alsa:default", "tone:440@-12".
    public var description: String {
        switch self {
        case .alsa(let device): Kind.alsa.prefix + device
        case .pulse(let source): Kind.pulse.prefix + source
        case .tone(let frequency, let peak): Kind.tone.prefix + Self.numberText(frequency) + "@" + Self.numberText(peak)
        case .file(let path): Kind.file.prefix + path
        case .url(let url): Kind.url.prefix + url
        case .joined(let first, let second): Kind.pulse.prefix + first + Self.joinSeparator + Kind.pulse.prefix + second
        }
    }

    /// The name the header shows: an ALSA device by its own name (the header says it is an
    /// input), any other input in its text form.
    public var shownName: String {
        if case .alsa(let device) = self { return device }
        if self == .meeting { return "meeting (mic + desktop)" }
        return description
    }

    /// The name the input picker shows in its name column: the text `--source` takes, the
    /// meeting as its shorthand (`meeting`).
    public var pickerName: String {
        self == .meeting ? Self.meetingWord : description
    }

    /// `440.0` as `440`, `-12.5` as `-12.5`: a tone's numbers as `--source` writes them.
    public static func numberText(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
