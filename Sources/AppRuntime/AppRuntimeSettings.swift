import Audio
import Interface
import SoundFiles

/// What the app runs with, resolved by its caller (flags over the config file over the
/// built-in defaults): the runtime never reads the command line or the config file.
public struct AppRuntimeSettings: Sendable {
    /// The input opened at start (`--source`).
    public var source: InputSource
    /// How memos are recorded.
    public var recording: RecordingSettings
    /// The ALSA device memos play through (`--device`).
    public var playbackDevice: String
    /// The PocketSphinx model folder (`transcribe.model`).
    public var transcriptionModel: String
    /// Where the library is (`VOICEMEMO_HOME`, XDG), `VOICEMEMO_FRAME_LOG`, `VOICEMEMO_EVENT_LOG`.
    public var environment: [String: String]
    /// Whether a stop signal (SIGINT, SIGTERM, SIGHUP) has arrived: asked at every tick and
    /// while an input opens; the app then saves the recording and quits.
    public var stopRequested: @Sendable () -> Bool
    /// `on_source_lost`: what a sound server's source removed while it is open does, for every
    /// `pulse:` input the app opens (the initial one carries it already).
    public var whenServerSourceLost: ServerSourceLoss = .stop
    /// `echo_cancel`: a meeting the app opens (the initial one carries it already) has the
    /// desktop's sound cancelled out of the microphone's channels.
    public var cancelsMeetingEcho = false
    /// `auto_title`: the background transcription titles memos still at their default title
    /// from their first words.
    public var titlesFromWords = true
    /// Keeps settings changed in the app (the config file's block of them), beside the loop;
    /// throws when the file cannot take them. `nil`: nothing is kept.
    public var keepSettings: (@Sendable ([SettingChange]) throws(SettingsNotSaved) -> Void)?

    public init(
        source: InputSource, recording: RecordingSettings, playbackDevice: String, transcriptionModel: String,
        environment: [String: String], stopRequested: @escaping @Sendable () -> Bool,
        keepSettings: (@Sendable ([SettingChange]) throws(SettingsNotSaved) -> Void)? = nil
    ) {
        self.keepSettings = keepSettings
        self.source = source
        self.recording = recording
        self.playbackDevice = playbackDevice
        self.transcriptionModel = transcriptionModel
        self.environment = environment
        self.stopRequested = stopRequested
    }
}
