import Audio
import SoundFiles

/// `voicememo [--source S] [--format F] [--rate HZ] [--channels N] [--device D] [--at TIME [--duration T]]`:
/// the full-screen app.
public struct AppOptions: Sendable, Equatable {
    /// `--source S`: the input to open; `nil` uses the config's, else `AutomaticDevices.input`.
    public var source: InputSource?
    /// `--format F`: what new memos are recorded as; `nil` is the configuration's, else
    /// `RecordingSettings.defaultFormat`.
    public var format: FileFormat?
    /// `--rate HZ`; `nil` is a file source's rate, the configuration's, else `RecordingSettings.defaultSampleRate`.
    public var sampleRate: Int?
    /// `--channels N`; `nil` is a file source's channels, the configuration's, else `RecordingSettings.defaultChannels`.
    public var channels: Int?
    /// `--device D`: the ALSA playback device; `nil` is `default`.
    public var playbackDevice: String?
    /// `--at TIME`: the app starts recording by itself then.
    var scheduledStart: ScheduledStart?
    /// `--duration T` (with `--at`): seconds of audio after which that recording stops and saves.
    var duration: Double?

    public init(
        source: InputSource? = nil, format: FileFormat? = nil, sampleRate: Int? = nil, channels: Int? = nil,
        playbackDevice: String? = nil
    ) {
        self.source = source
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
        self.playbackDevice = playbackDevice
    }
}
