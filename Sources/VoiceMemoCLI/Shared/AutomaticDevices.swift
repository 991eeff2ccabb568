import Audio
import Vocabulary

/// The input and the playback device used when neither a flag nor the config file names one:
/// the sound server's default source and sink when a server answers (PulseAudio, or
/// PipeWire's pipewire-pulse, at libpulse's own address: `PULSE_SERVER`, then the user's
/// socket), ALSA's `default` where none does. `alsa:default` and `--device default` name
/// ALSA's on purpose.
///
/// The server is asked once per process, at the first need, for at most
/// `PulseDevices.timeout`.
enum AutomaticDevices {
    /// `pulse:default` with a server, `alsa:default` without.
    static var input: InputSource {
        choose(serverAnswers: serverAnswers)
    }

    /// `pulse:default` with a server, `default` (ALSA's) without: as `--device` takes them.
    static var playbackDevice: String {
        choosePlaybackDevice(serverAnswers: serverAnswers)
    }

    /// The input for a machine where a server answers or does not.
    static func choose(serverAnswers: Bool) -> InputSource {
        serverAnswers ? InputSource(InputName.pulse(source: PulseCaptureSource.defaultName)) : .default
    }

    /// The playback device for a machine where a server answers or does not.
    static func choosePlaybackDevice(serverAnswers: Bool) -> String {
        serverAnswers ? InputName.Kind.pulse.prefix + PulseCaptureSource.defaultName : "default"
    }

    /// Asked once, lazily: a process that names its devices never connects.
    private static let serverAnswers = PulseDevices.serverAnswers()
}
