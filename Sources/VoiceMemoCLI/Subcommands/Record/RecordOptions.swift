import Audio
import SoundFiles
/// What `voicememo record` was asked to do.
///
/// `nil` means "not given on the command line": the config file or the built-in default
/// decides (flags override config).
public struct RecordOptions: Sendable, Equatable {
    /// `--duration T`: stop after this much recorded audio.
    public var duration: Duration?
    /// `--delay T`: start after this long.
    public var delay: Duration?
    /// `--at TIME`: start then (wall clock).
    var startsAt: ScheduledStart?
    /// `--title TEXT`.
    public var title: String?
    /// `--format F`.
    public var format: FileFormat?
    /// `--encoding E`.
    public var encoding: Encoding?
    /// `--rate HZ`, in Hz.
    public var sampleRate: Int?
    /// `--channels N`, 1…32.
    public var channels: Int?
    /// `--quality Q`.
    public var quality: Quality?
    /// `--source S`.
    public var source: InputSource?
    /// `--output PATH`: write this file instead of adding a memo to the library.
    public var outputPath: String?
    /// `--force`: with `--output`, replace an existing regular file (see `OutputDestination`).
    public var force: Bool
    /// `--vox` and its parameters; `nil` without `--vox`.
    public var voiceActivation: VoiceActivationOptions?
    /// `--json`: print the new memo as JSON.
    public var json: Bool
    /// `--play`: play the memo (or the file) as soon as it is saved.
    public var playsAfterStop = false
    /// `--no-transcribe`: with `transcribe = auto`, do not transcribe the memo once saved.
    public var skipsTranscription = false
    /// `--captions`: show draft words while recording.
    public var showsCaptions = false
    /// `--echo-cancel`: take the desktop's sound out of a meeting's microphone channels.
    public var cancelsEcho = false
    /// `--replay`: play each kept voice take back as it ends (with `--vox`).
    public var replaysTakes = false
    /// `--pitch`: the replay's pitch shift in semitones (with `--replay`).
    public var replayPitch: Double?

    public init(
        duration: Duration? = nil, delay: Duration? = nil, title: String? = nil,
        format: FileFormat? = nil, encoding: Encoding? = nil, sampleRate: Int? = nil,
        channels: Int? = nil, quality: Quality? = nil, source: InputSource? = nil,
        outputPath: String? = nil, force: Bool = false, voiceActivation: VoiceActivationOptions? = nil,
        json: Bool = false
    ) {
        self.duration = duration
        self.delay = delay
        self.title = title
        self.format = format
        self.encoding = encoding
        self.sampleRate = sampleRate
        self.channels = channels
        self.quality = quality
        self.source = source
        self.outputPath = outputPath
        self.force = force
        self.voiceActivation = voiceActivation
        self.json = json
    }
}

/// The voice-activation parameters of `record --vox`; `nil` fields use the configured defaults.
public struct VoiceActivationOptions: Sendable, Equatable {
    /// `--vox-threshold DB`: the smoothed level, in dBFS, that starts a recording.
    public var thresholdDB: Double?
    /// `--vox-silence T`: how long the level stays below the threshold before stopping.
    public var silence: Duration?
    /// `--vox-min T`: utterances shorter than this are not kept.
    public var minimumLength: Duration?
    /// `--vox-preroll T`: audio kept from before the threshold was crossed.
    public var preroll: Duration?
    /// `--vox-calibrate T`: listen this long first and start at the noise floor + 12 dB.
    public var calibration: Duration?
    /// `--vox-level-only`: the level alone starts and ends recordings (no speech detector).
    public var levelOnly: Bool

    public init(
        thresholdDB: Double? = nil, silence: Duration? = nil, minimumLength: Duration? = nil,
        preroll: Duration? = nil, calibration: Duration? = nil, levelOnly: Bool = false
    ) {
        self.levelOnly = levelOnly
        self.calibration = calibration
        self.thresholdDB = thresholdDB
        self.silence = silence
        self.minimumLength = minimumLength
        self.preroll = preroll
    }
}
