import CALSA
import Glibc

/// An error from alsa-lib: the negative errno code it returned, with where it happened.
///
/// Modelled on swift-system's `Errno`: the code is the identity (equality and hashing
/// use only `rawValue`, so `catch ALSAError.busy` works), and the named statics carry
/// the C name in their doc comments. The rest is context for the person reading the
/// message: the alsa-lib function that failed, the device, and alsa-lib's own text,
/// which the shim's error handler captured instead of printing it on stderr.
public struct ALSAError: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The negative errno code alsa-lib returned, e.g. `-EPIPE`.
    public var rawValue: Int32
    /// The alsa-lib function that failed, e.g. `snd_pcm_open`.
    public var function: String
    /// The device name as given, e.g. `default` or `hw:0`.
    public var device: String
    /// Whether the device was being used for capture or playback, when known.
    public var stream: ALSAStream?
    /// alsa-lib's own message for this failure ("" when it printed none).
    public var alsaMessage: String
    /// Our own detail, e.g. what the device offers when a format was refused.
    public var detail: String

    /// An error with a code and no context.
    public init(rawValue: Int32) {
        self.init(code: rawValue, function: "", device: "")
    }

    /// An error with its context.
    ///
    /// - Parameters:
    ///   - code: The negative errno code (a positive one is negated).
    ///   - function: The alsa-lib function that returned it.
    ///   - device: The device name.
    ///   - stream: Capture or playback, when known.
    ///   - alsaMessage: alsa-lib's captured message.
    ///   - detail: Extra explanation of our own.
    public init(
        code: Int32, function: String, device: String, stream: ALSAStream? = nil,
        alsaMessage: String = "", detail: String = ""
    ) {
        self.rawValue = code > 0 ? -code : code
        self.function = function
        self.device = device
        self.stream = stream
        self.alsaMessage = alsaMessage
        self.detail = detail
    }

    public static func == (lhs: ALSAError, rhs: ALSAError) -> Bool {
        lhs.rawValue == rhs.rawValue
    }

    /// Lets `catch ALSAError.busy` match any error with that code.
    public static func ~= (pattern: ALSAError, value: any Error) -> Bool {
        guard let error = value as? ALSAError else { return false }
        return error.rawValue == pattern.rawValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }

    /// Overrun on capture or underrun on playback (an xrun).
    ///
    /// The corresponding C error is `-EPIPE`.
    public static var brokenPipe: ALSAError { ALSAError(rawValue: -EPIPE) }

    /// The device was suspended (power management); resume or prepare it.
    ///
    /// The corresponding C error is `-ESTRPIPE`.
    public static var suspended: ALSAError { ALSAError(rawValue: -ESTRPIPE) }

    /// The device is gone, typically unplugged.
    ///
    /// The corresponding C error is `-ENODEV`.
    public static var noDevice: ALSAError { ALSAError(rawValue: -ENODEV) }

    /// The device is gone; some drivers report an unplug this way.
    ///
    /// The corresponding C error is `-ENOTTY`.
    public static var notTTY: ALSAError { ALSAError(rawValue: -ENOTTY) }

    /// An input/output error from the driver.
    ///
    /// The corresponding C error is `-EIO`.
    public static var io: ALSAError { ALSAError(rawValue: -EIO) }

    /// The device is in use by another program.
    ///
    /// The corresponding C error is `-EBUSY`.
    public static var busy: ALSAError { ALSAError(rawValue: -EBUSY) }

    /// No data yet (non-blocking mode), or the device is still suspended during resume.
    ///
    /// The corresponding C error is `-EAGAIN`.
    public static var wouldBlock: ALSAError { ALSAError(rawValue: -EAGAIN) }

    /// A parameter was refused, e.g. a format the device cannot do.
    ///
    /// The corresponding C error is `-EINVAL`.
    public static var invalidArgument: ALSAError { ALSAError(rawValue: -EINVAL) }

    /// No such device or configuration entry (alsa-lib's "Unknown PCM").
    ///
    /// The corresponding C error is `-ENOENT`.
    public static var noEntry: ALSAError { ALSAError(rawValue: -ENOENT) }

    /// A system call was interrupted by a signal; retrying is safe.
    ///
    /// The corresponding C error is `-EINTR`.
    public static var interrupted: ALSAError { ALSAError(rawValue: -EINTR) }

    /// The operation is not supported by this device or plugin.
    ///
    /// The corresponding C error is `-ENOSYS`.
    public static var notImplemented: ALSAError { ALSAError(rawValue: -ENOSYS) }

    /// The device is in the wrong state for the call (e.g. not prepared).
    ///
    /// The corresponding C error is `-EBADFD`.
    public static var badState: ALSAError { ALSAError(rawValue: -EBADFD) }

    /// Whether the code means the device disappeared (`-ENODEV` or `-ENOTTY`).
    public var isDisconnection: Bool {
        rawValue == -ENODEV || rawValue == -ENOTTY
    }

    /// The reason in a few lower-case words, e.g. "no such device".
    public var reason: String {
        switch -rawValue {
        case EPIPE: stream == .playback ? "underrun (the device ran out of audio)" : "overrun (audio was lost)"
        case ESTRPIPE: "the device is suspended"
        case ENODEV, ENOTTY: "the device was disconnected"
        case ENOENT: function == "voicememo_alsa_load_config" ? "no such file" : "no such device"
        case EBUSY: "the device is in use by another program"
        case EIO: "input/output error"
        case EAGAIN: "the device is not ready yet"
        case EINVAL: function == "voicememo_alsa_load_config" ? "the file is not valid ALSA configuration" : "the device refused the parameters"
        case EINTR: "interrupted by a signal"
        default: Self.lowercasedFirst(String(cString: snd_strerror(rawValue)))
        }
    }

    /// Whether the failing call opened the device (`snd_pcm_open`, `snd_pcm_open_lconf`).
    public var isOpenFailure: Bool {
        function == "snd_pcm_open" || function == "snd_pcm_open_lconf"
    }

    /// The reason with our own detail, without the action or alsa-lib's text, e.g.
    /// "no such device" or "the device refused the parameters; it offers 44100 Hz".
    public var reasonWithDetail: String {
        detail.isEmpty ? reason : "\(reason); \(detail)"
    }

    /// One sentence a person can read, e.g.
    /// `cannot open capture device "foo": no such device (ALSA: Unknown PCM foo)`.
    public var description: String {
        var sentence = "\(action): \(reason)"
        if !detail.isEmpty { sentence += "; \(detail)" }
        if !alsaMessage.isEmpty { sentence += " (ALSA: \(alsaMessage))" }
        return sentence
    }

    private var action: String {
        let kind = stream.map { "\($0.rawValue) device" } ?? "device"
        let named = device.isEmpty ? kind : "\(kind) \"\(device)\""
        switch function {
        case "snd_pcm_open", "snd_pcm_open_lconf": return "cannot open \(named)"
        case "voicememo_alsa_load_config": return "cannot load the ALSA configuration for \(named)"
        case "snd_pcm_readi": return "cannot read from \(named)"
        case "snd_pcm_writei": return "cannot write to \(named)"
        case "": return "ALSA error on \(named)"
        default:
            if function.hasPrefix("snd_pcm_hw_params") || function.hasPrefix("snd_pcm_sw_params") {
                return "cannot set up \(named)"
            }
            return "\(function) failed on \(named)"
        }
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}

/// The direction of a PCM stream.
public enum ALSAStream: String, Sendable, CaseIterable {
    case capture
    case playback

    var cValue: snd_pcm_stream_t {
        switch self {
        case .capture: SND_PCM_STREAM_CAPTURE
        case .playback: SND_PCM_STREAM_PLAYBACK
        }
    }
}
