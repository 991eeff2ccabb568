import VoiceActivation
import Audio
import Interface
import SoundFiles

/// The settings of the config file (`$XDG_CONFIG_HOME/voicememo/config`): defaults that
/// flags override. Every field is `nil` when the file does not set it.
struct Configuration: Sendable, Equatable {
    /// `format = flac`.
    var format: FileFormat?
    /// `encoding = pcm24`.
    var encoding: Encoding?
    /// `rate = 44.1k`, in Hz.
    var sampleRate: Int?
    /// `channels = 1`.
    var channels: Int?
    /// `quality = max`.
    var quality: Quality?
    /// `source = tone:440@-12`.
    var source: InputSource?
    /// `on_source_lost = default`: a sound server's source removed mid-recording is replaced
    /// by the server's default source, in the same memo (`nil` is `stop`).
    var onSourceLost: ServerSourceLoss?
    /// `echo_cancel = on`: a meeting (a joined input) has the desktop's sound cancelled out of
    /// the microphone's channels, as with `record --echo-cancel` (`nil` is off).
    var echoCancel: Bool?
    /// `vox.threshold = -45` (dBFS).
    var voxThresholdDB: Double?
    /// `vox.silence = 1.5s`, in seconds.
    var voxSilence: Double?
    /// `vox.min = 0.3s`, in seconds.
    var voxMinimum: Double?
    /// `vox.preroll = 500ms`, in seconds.
    var voxPreRoll: Double?
    /// `vox.level_only = on`: the level alone starts and ends takes, without the speech detector
    /// (`record --vox-level-only`, the app's `v`).
    var voxLevelOnly: Bool?
    /// `vox.replay = on`: the talking-app replay of each voice take (`record --vox --replay`, the app's `V` panel).
    var voxReplay: Bool?
    /// `vox.replay_pitch = 7`: the replay's pitch in semitones (`--pitch`).
    var voxReplayPitch: Double?
    /// `meter.min_db = -70`: the MeterTable floor, in dB.
    var meterMinimumDB: Double?
    /// `meter.peak_hold = 2s`: how long the peak is held before it decays, in seconds.
    var meterPeakHold: Double?
    /// `meter.mode = ppm2`: what the LED rows show when the app starts.
    var meterMode: MeterMode?
    /// `meter.loudness_target = -16`: the loudness mode's target line, in LUFS.
    var loudnessTarget: Double?
    /// `play_after_stop = true`: `record` plays each memo as soon as it is saved.
    var playAfterStop: Bool?
    /// `transcribe = manual`: when memos are transcribed (`nil` is `auto`).
    var transcribeMode: TranscribeMode?
    /// `transcribe.model = /usr/share/pocketsphinx/model/en-us`: the PocketSphinx model folder.
    var transcriptionModel: String?
    /// `captions = on`: `record` shows draft words while it records, as with `--captions`, and
    /// the app starts with its live captions on (`C`) (`nil` is off).
    var captions: Bool?
    /// `auto_title = off`: a memo still at its default title keeps it once transcribed (`nil` is
    /// on: it is titled from its first words).
    var autoTitle: Bool?
    /// `notify = auto|on|off`: desktop notifications of `toggle`, `stop`, `pause` and `mark`
    /// (`HotkeyNotice`; `nil` is `auto`).
    var notify: HotkeyNotice.Mode?
    /// `alert = on`: the app's noise alert (the `V` panel) is on from the start.
    var alertOn: Bool?
    /// `alert.level = -30`: the level that alerts, in dBFS.
    var alertLevelDB: Double?
    /// `alert.hold = 1s`: how long the level must stay above it, in seconds.
    var alertHold: Double?
    /// `play.device = pulse`: the device the app plays memos on (`--device`, the app's `O`): an
    /// ALSA device, or `pulse:NAME`, a sink of the sound server.
    var playbackDevice: String?
    /// `play.volume = 120`: the app's playback volume in percent (its `-` and `+`).
    var playbackVolume: Int?
    /// `play.enhance = on`: the app plays memos with the background noise suppressed (its `f`).
    var playbackEnhances: Bool?
    /// `sort = title`: the order of the app's memo table (its `a`).
    var sortOrder: MemoSortOrder?

    init() {}

    /// The input to open: `flag` (`--source`) over `source` over `automatic`
    /// (`AutomaticDevices.input` in the commands), with `on_source_lost` for a sound server's
    /// source and, for a meeting, echo cancelling when `cancelsEcho` (`--echo-cancel`) or
    /// `echo_cancel` says so.
    func input(
        _ flag: InputSource?, cancelsEcho: Bool = false, automatic: @autoclosure () -> InputSource
    ) -> InputSource {
        (flag ?? source ?? automatic()).whenServerSourceLost(onSourceLost ?? .stop)
            .cancellingEcho(cancelsEcho || echoCancel == true)
    }

    /// The voice-activation settings: the config's values over the built-in defaults.
    var voiceActivationSettings: VoiceActivationSettings {
        var settings = VoiceActivationSettings()
        if let voxThresholdDB { settings.startThresholdDB = voxThresholdDB }
        if let voxSilence { settings.hangTime = voxSilence }
        if let voxMinimum { settings.minimumTake = voxMinimum }
        if let voxPreRoll { settings.preRoll = voxPreRoll }
        if let voxLevelOnly { settings.listensForSpeech = !voxLevelOnly }
        return settings
    }
}
