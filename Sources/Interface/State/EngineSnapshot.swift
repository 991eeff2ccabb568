import Vocabulary
import Metering

/// Whether audio is going to a file.
public enum RecordingState: Sendable, Hashable {
    case idle
    case recording
    case paused
}

/// One channel's levels in dBFS (−160 for silence), as `averagePower(forChannel:)` and
/// `peakPower(forChannel:)` report them.
public struct ChannelLevel: Sendable, Hashable {
    public var average: Float
    public var peak: Float

    public init(average: Float, peak: Float) {
        self.average = average
        self.peak = peak
    }
}

/// What the runner read from the engine and the recorder at one tick.
public struct EngineSnapshot: Sendable, Hashable {
    /// One entry per input channel.
    public var channels: [ChannelLevel]
    /// Frames recorded into the current memo (pauses excluded); 0 when idle.
    public var recordedFrames: Int64
    public var recording: RecordingState
    /// The voice-activation detector's reading; `nil` when voice activation is off.
    public var voiceActivation: VoiceActivationSnapshot?
    /// PPM, VU and loudness readings of the input; `nil` when nothing analyses the samples.
    public var ballistics: BallisticReadings?
    /// What `InputDiagnostics` finds wrong with the input now; `nil` when it looks fine.
    public var diagnosis: InputDiagnosis?
    /// The noise alert's detector; `nil` when the alert is off.
    public var noiseAlert: NoiseAlertSnapshot?
    /// The input's clips since it opened, all channels (`ClipRule`; `CaptureEngine.totalClipCount`):
    /// the CLIP light follows the count `meter`, `record` and `analyze` report.
    public var clipCount: Int

    public init(
        channels: [ChannelLevel], recordedFrames: Int64 = 0, recording: RecordingState = .idle,
        voiceActivation: VoiceActivationSnapshot? = nil, ballistics: BallisticReadings? = nil,
        diagnosis: InputDiagnosis? = nil, noiseAlert: NoiseAlertSnapshot? = nil, clipCount: Int = 0
    ) {
        self.clipCount = clipCount
        self.noiseAlert = noiseAlert
        self.channels = channels
        self.recordedFrames = recordedFrames
        self.recording = recording
        self.voiceActivation = voiceActivation
        self.ballistics = ballistics
        self.diagnosis = diagnosis
    }
}

/// The open input, as the header shows it.
public struct InputDescription: Sendable, Hashable {
    /// e.g. `alsa:default`, `tone:440@-12`.
    public var name: InputName
    public var sampleRate: Int
    public var channels: Int
    /// The format new memos are recorded in, e.g. "FLAC".
    public var recordingFormat: String
    /// Whether a capture volume may stand behind it (an ALSA input's mixer, a sound server's
    /// source): the capture keys `<` `>` `M` ask it.
    public var hasCaptureMixer: Bool
    /// What stands behind it: the input advice is fitted to it (`InputDiagnosis.message(for:)`).
    public var kind: InputKind

    public init(
        name: InputName, sampleRate: Int, channels: Int, recordingFormat: String, hasCaptureMixer: Bool = false,
        kind: InputKind = .device
    ) {
        self.hasCaptureMixer = hasCaptureMixer
        self.kind = kind
        self.name = name
        self.sampleRate = sampleRate
        self.channels = channels
        self.recordingFormat = recordingFormat
    }
}

/// What the input picker offers: the choices (the current input first) and the names of the
/// ALSA helper plugins left out of them (rate converters, mixers, `null`), which the picker
/// names so that a person looking for one knows it was left out, not missing.
public struct InputChoiceList: Sendable, Hashable {
    public var choices: [InputChoice]
    public var hidden: [String]

    public init(choices: [InputChoice], hidden: [String] = []) {
        self.choices = choices
        self.hidden = hidden
    }
}

/// An input the picker offers.
public struct InputChoice: Sendable, Hashable {
    /// The input, as `--source` would name it: `alsa:default`, `tone:440@-12`.
    public var source: InputName
    /// A human description, e.g. ALSA's device description.
    public var description: String

    public init(source: InputName, description: String) {
        self.source = source
        self.description = description
    }
}
