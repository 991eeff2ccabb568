/// What is wrong with an input, as `InputDiagnostics` concludes it: one finding at a time,
/// the most fundamental one.
///
/// The cases are listed in priority order: when several apply, the earlier one is reported,
/// because it makes the later ones meaningless or is the harder one to repair afterwards.
/// - `noAudio` first: an input that delivers no frames at all cannot be judged by them
///   (`InputDiagnostics` never concludes it: it sees only frames that arrive; the capture
///   engine does, from the time since its last frame).
/// - `silent` next: with no signal at all, nothing else can be judged.
/// - `channelSilent` next: a dead channel is a wiring or mixer fault, more basic than gain.
/// - `tooHot` before `tooQuiet`: clipped audio cannot be repaired, quiet audio can be raised.
/// What stands behind an input, for advice on it: a sound card (ALSA, its mixer), a sound
/// server's ALSA device (PulseAudio or PipeWire: the desktop's volume, through the plugin's
/// control), a sound server's source by name (`pulse:`: the desktop's volume, which the app's
/// keys change on the server), two of the server's sources joined (a meeting: two volumes, which
/// the keys leave alone), a file, a network stream, or a generated tone.
public enum InputKind: Sendable, Hashable {
    case device, soundServer, serverSource, serverSources, file, stream, tone
}

public enum InputDiagnosis: Sendable, Hashable {
    /// The input is open but has delivered no frame for `noAudioAfter` seconds or more (a
    /// stopped sound server, a stream nothing links, a device that stopped delivering).
    case noAudio
    /// Every channel is digital silence (every sample exactly 0) or a flat DC level.
    case silent
    /// These channels (0-based, ascending) are silent while another channel has sound;
    /// `channelCount` is the input's channel count, for naming them (left/right in stereo).
    case channelSilent(channels: [Int], channelCount: Int)
    /// A sample reached full scale, or a peak came within 3 dB of it.
    case tooHot
    /// There is speech, but its peaks stay below −30 dBFS.
    case tooQuiet

    /// The sentence a person reads: what is wrong, then what to do about it. Each fits an
    /// 80-column status line (78 characters at most for stereo).
    public var message: String {
        switch self {
        case .noAudio:
            "No audio from the input for \(Int(Self.noAudioAfter)) s: is the audio server running?"
        case .silent:
            "Input is silent: is the capture switch off or muted? (alsamixer, F4)"
        case .channelSilent(let channels, let channelCount):
            "\(Self.naming(channels, of: channelCount)) silent: check the cable and mixer (alsamixer, F4)"
        case .tooHot:
            "Too hot: less than 3 dB of headroom or clipping; lower the input gain"
        case .tooQuiet:
            "Too quiet: speech peaks stay below −30 dBFS; move closer or raise the gain"
        }
    }

    /// The sentence for an input of `kind`: the advice fitted to what can be done about it
    /// (the app's status line). A file or a stream is not told about mixers; a sound
    /// server's source, through its ALSA device or by name, is told the app's own keys (`M`,
    /// `<`, `>`, which change the server's volume) and the desktop's sound settings, not
    /// alsamixer; two joined sources (no one volume for the keys) the desktop's settings alone; a
    /// card keeps `message`'s words.
    public func message(for kind: InputKind) -> String {
        let kind = kind == .serverSource ? InputKind.soundServer : kind
        return switch (self, kind) {
        case (.silent, .file): "Input is silent: this part of the file holds no sound"
        case (.silent, .stream): "Input is silent: the stream sends no sound"
        case (.silent, .soundServer): "Input is silent: press M if muted, > to raise; or the desktop's sound settings"
        case (.channelSilent(let channels, let count), .file), (.channelSilent(let channels, let count), .stream):
            "\(Self.naming(channels, of: count)) silent in the \(kind == .file ? "file" : "stream")"
        case (.channelSilent(let channels, let count), .soundServer):
            "\(Self.naming(channels, of: count)) silent: check the cable and the desktop's sound settings"
        case (.tooHot, .file), (.tooHot, .stream):
            "Too hot: less than 3 dB of headroom or clipping in the \(kind == .file ? "file" : "stream")"
        case (.tooHot, .soundServer), (.tooHot, .device):
            "Too hot: less than 3 dB of headroom or clipping; press < to lower the gain"
        case (.tooQuiet, .file), (.tooQuiet, .stream):
            "Too quiet: speech peaks stay below −30 dBFS in the \(kind == .file ? "file" : "stream")"
        case (.tooQuiet, .soundServer), (.tooQuiet, .device):
            "Too quiet: speech peaks stay below −30 dBFS; move closer or press > to raise"
        case (.silent, .serverSources): "Input is silent: is a source muted? (the desktop's sound settings)"
        case (.channelSilent(let channels, let count), .serverSources):
            "\(Self.naming(channels, of: count)) silent: check that source in the desktop's sound settings"
        case (.tooHot, .serverSources): "Too hot: less than 3 dB of headroom or clipping; lower that source's volume"
        case (.tooQuiet, .serverSources): "Too quiet: speech peaks stay below −30 dBFS; move closer or raise the source"
        default: message
        }
    }

    /// Seconds without a frame after which an open input is reported as `noAudio`.
    public static let noAudioAfter = 2.0

    /// "Right channel is", "Channel 3 is", "Channels 3 and 4 are", "Channels 2, 3 and 4 are".
    private static func naming(_ channels: [Int], of channelCount: Int) -> String {
        if channelCount == 2, channels.count == 1 {
            return channels[0] == 0 ? "Left channel is" : "Right channel is"
        }
        let numbers = channels.map { String($0 + 1) }
        guard let last = numbers.last else { return "A channel is" }
        if numbers.count == 1 { return "Channel \(last) is" }
        return "Channels \(numbers.dropLast().joined(separator: ", ")) and \(last) are"
    }
}
