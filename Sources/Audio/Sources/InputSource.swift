import Vocabulary
import SoundFiles
import Streaming

/// Where a recording's audio comes from, as named on the command line
/// (`alsa:NAME`, `pulse:NAME`, `tone:FREQ@DBFS`, `file:PATH`, `url:URL`, `pulse:A+pulse:B`): an `InputName` and what
/// opening it needs besides (an ALSA configuration file or a sound server's address for tests).
public enum InputSource: Sendable, Hashable, CustomStringConvertible {
    /// An ALSA PCM by name, as `arecord -D` takes it. `configFile` loads extra
    /// device definitions in-process (tests); otherwise ALSA's usual configuration
    /// (including `ALSA_CONFIG_PATH`) applies.
    case alsa(device: String, configFile: String? = nil)
    /// A source of the sound server by the server's name ("default": its default source).
    /// `server` is an address (`unix:/path/native`); otherwise libpulse's usual choice applies
    /// (`PULSE_SERVER`, then the user's socket). `whenLost` says what a removal of a named
    /// source does (`on_source_lost`).
    case pulse(source: String, server: String? = nil, whenLost: ServerSourceLoss = .stop)
    /// A sine in every channel with its peak at `peakDBFS`.
    case tone(frequency: Double, peakDBFS: Double)
    /// A sound file played in as the microphone.
    case file(path: String)
    /// An http(s) network stream played in as the microphone (FFmpeg, resampled to the recording).
    case url(String)
    /// Two sources of one sound server recorded as the channels of one memo, `first`'s then
    /// `second`'s (`PulseJoinedCaptureSource`); `server` as for `.pulse`. `cancelsEcho` takes
    /// `second`'s sound out of `first`'s channels (`record --echo-cancel`, `echo_cancel = on`).
    case joined(first: String, second: String, server: String? = nil, cancelsEcho: Bool = false)

    /// `alsa:default`, used when nothing names an input and no sound server answers.
    public static let `default` = InputSource.alsa(device: "default")

    /// The source named `name`, with ALSA's usual configuration.
    public init(_ name: InputName) {
        switch name {
        case .alsa(let device): self = .alsa(device: device)
        case .pulse(let source): self = .pulse(source: source)
        case .tone(let frequency, let peak): self = .tone(frequency: frequency, peakDBFS: peak)
        case .file(let path): self = .file(path: path)
        case .url(let url): self = .url(url)
        case .joined(let first, let second): self = .joined(first: first, second: second)
        }
    }

    /// The same input, a sound server's source going on from the default source when it is
    /// removed (`ServerSourceLoss`); any other input as it is.
    public func whenServerSourceLost(_ loss: ServerSourceLoss) -> InputSource {
        guard case .pulse(let source, let server, _) = self else { return self }
        return .pulse(source: source, server: server, whenLost: loss)
    }

    /// The same input with the desktop's sound cancelled out of the microphone's channels when
    /// `cancelsEcho` (a joined input, `JoinedEchoCancelling`); any other input as it is.
    public func cancellingEcho(_ cancelsEcho: Bool) -> InputSource {
        guard case .joined(let first, let second, let server, _) = self else { return self }
        return .joined(first: first, second: second, server: server, cancelsEcho: cancelsEcho)
    }

    /// Whether the desktop's sound is cancelled out of the microphone's channels.
    public var cancelsEcho: Bool {
        guard case .joined(_, _, _, let cancelsEcho) = self else { return false }
        return cancelsEcho
    }

    /// Its name, as the app's state and effects carry it.
    public var name: InputName {
        switch self {
        case .alsa(let device, _): .alsa(device: device)
        case .pulse(let source, _, _): .pulse(source: source)
        case .tone(let frequency, let peak): .tone(frequency: frequency, peakDBFS: peak)
        case .file(let path): .file(path: path)
        case .url(let url): .url(url)
        case .joined(let first, let second, _, _): .joined(first: first, second: second)
        }
    }

    /// The text form `--source` takes (`InputName.description`).
    public var description: String { name.description }

    /// Checks what can be checked before anything opens.
    func validate(for settings: RecordingSettings) throws(RecorderError) {
        switch self {
        case .alsa(let device, _):
            if device.isEmpty { throw RecorderError(.settings, "the ALSA device name is empty; try alsa:default") }
        case .pulse(let source, _, _):
            if source.isEmpty { throw RecorderError(.settings, "the sound server's source name is empty; try pulse:default") }
        case .tone(let frequency, let peak):
            let nyquist = Double(settings.sampleRate) / 2
            guard frequency > 0, frequency < nyquist else {
                throw RecorderError(.settings, "a \(Self.number(frequency)) Hz tone cannot be recorded at \(settings.sampleRate) Hz: use 1 to \(Int(nyquist) - 1) Hz")
            }
            guard peak.isFinite, peak <= 0 else {
                throw RecorderError(.settings, "a tone at \(Self.number(peak)) dBFS is not possible: the peak must be at most 0 dBFS")
            }
        case .file(let path):
            if path.isEmpty { throw RecorderError(.settings, "the file source needs a path: file:PATH") }
        case .url(let url):
            if StreamURL(url) == nil { throw RecorderError(.settings, "\(InputName.url(url)) is not an http:// or https:// URL") }
        case .joined(let first, let second, _, let cancelsEcho):
            if cancelsEcho, !WebRTCEchoCanceller.supports(sampleRate: settings.sampleRate) {
                throw RecorderError(.settings, EchoCancellerError.unsupportedSampleRate(settings.sampleRate).description)
            }
            if first.isEmpty || second.isEmpty {
                throw RecorderError(.settings, "a joined input needs two sound server sources: pulse:A+pulse:B")
            }
            guard PulseJoinedCaptureSource.channelsPerInput(recording: settings.channels) != nil else {
                throw RecorderError(
                    .settings,
                    "\(name) records 2 channels (each input mixed to mono: the first left, the second right) or 4 (each input in stereo), not \(settings.channels); use --channels 2 or --channels 4")
            }
        }
    }

    /// Opens the source for capture in `format` (an ALSA device may convert).
    ///
    /// A file source delivers the file's own rate and channels; the caller checks
    /// that they match the recording.
    public func open(format: StreamFormat, paced: Bool) throws(RecorderError) -> CaptureSource {
        switch self {
        case .alsa(let device, let configFile):
            do {
                return try ALSACaptureSource(device: device, format: format, configFile: configFile)
            } catch {
                let missing = error == .noEntry || error == .noDevice
                throw RecorderError(
                    .input, error.description,
                    hint: missing ? "`voicememo devices` lists the inputs, and --source tone:1000@-12 needs no sound card" : nil,
                    cause: .alsa(error))
            }
        case .pulse(let source, let server, let whenLost):
            do {
                return try PulseCaptureSource(source: source, format: format, server: server, whenLost: whenLost)
            } catch {
                throw RecorderError(
                    error.kind == .noSuchSource ? .settings : .input, error.description,
                    hint: error.kind == .noSuchSource ? nil : "`voicememo devices` lists the inputs", cause: .pulse(error))
            }
        case .tone(let frequency, let peak):
            do {
                return try ToneSource(frequency: frequency, peakDBFS: peak, format: format, paced: paced)
            } catch {
                throw RecorderError(.settings, error.message)
            }
        case .file(let path):
            do {
                return try FileSource(path: path, sampleFormat: format.sampleFormat, paced: paced)
            } catch {
                throw RecorderError(.input, error.message, cause: error.cause)
            }
        case .url(let url):
            do {
                return try URLSource(url: url, format: format, paced: paced)
            } catch {
                throw RecorderError(.input, error.message)
            }
        case .joined(let first, let second, let server, let cancelsEcho):
            let echo: JoinedEchoCancelling?
            do throws(EchoCancellerError) {
                let perInput = PulseJoinedCaptureSource.channelsPerInput(recording: format.channels) ?? 1
                echo = cancelsEcho ? try JoinedEchoCancelling(format: format, channelsPerInput: perInput) : nil
            } catch {
                let refused = if case .unsupportedSampleRate = error { true } else { false }
                throw RecorderError(refused ? .settings : .input, error.description, cause: .echoCanceller(error))
            }
            do {
                return try PulseJoinedCaptureSource(first: first, second: second, format: format, server: server, echo: echo)
            } catch {
                throw RecorderError(
                    error.kind == .noSuchSource ? .settings : .input, error.description,
                    hint: error.kind == .noSuchSource ? nil : "`voicememo devices` lists the inputs", cause: .pulse(error))
            }
        }
    }

    private static func number(_ value: Double) -> String {
        InputName.numberText(value)
    }
}
