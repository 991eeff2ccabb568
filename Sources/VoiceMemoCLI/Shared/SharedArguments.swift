import Audio
import ArgumentParsing
import AppRuntime
import SoundFiles

/// Arguments several subcommands declare the same way.
enum SharedArguments {
    /// `MEMO`: a memo id or a unique title prefix (see `MemoReference`).
    static let memo = Positional<String>(
        name: "MEMO",
        help: "The memo: its id (all digits is only ever an id), else its title or a unique prefix of it; "
            + "title:TEXT is always a title (title:2 for a memo titled \"2 weeks\").",
        parser: ValueParser.nonEmptyText.completing(.memo))

    /// `--json`: machine-readable output.
    static let json = Flag(name: "json", help: "Print JSON instead of text.")

    /// `--source S`: where audio comes from.
    static let source = Option<InputSource>(
        name: "source", shortName: "s", valueName: "S",
        help: "Where audio comes from: alsa:NAME (a capture device, as arecord -L lists them), "
            + "pulse:NAME (a sound server's source, as voicememo devices lists them; pulse:default is its default), "
            + "tone:FREQ@DBFS (a sine whose peak is at DBFS, e.g. tone:1000@-12), file:PATH "
            + "(a sound file played in as if from a microphone, in real time), url:URL (an http or https "
            + "stream, resampled to the recording's rate and channels), pulse:A+pulse:B (two sound server sources "
            + "as the channels of one memo, A's first; 2 channels mix each to mono, 4 keep each in stereo) or "
            + "meeting (the sound server's default source and what its default sink plays: pulse:default+pulse:@DEFAULT_MONITOR@).",
        defaultDescription: "pulse:default when a sound server answers, else alsa:default", parser: InputSource.parser)

    /// The sample rates `--rate` accepts, in Hz.
    static let sampleRates = RecordingSettings.sampleRateRange
}
