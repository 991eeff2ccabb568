import ArgumentParsing
import Streaming

/// `voicememo play MEMO [--device D] [--from T]`: play a memo.
enum PlayCommand: SubcommandDefinition {
    static let device = Option<String>(
        name: "device", valueName: "D", help: "The playback device: pulse:NAME (a sink of the sound server, as `devices` lists them) or an ALSA device.",
        defaultDescription: "pulse:default when a sound server answers, else ALSA's default", parser: .nonEmptyText)
    static let start = Option<Duration>(
        name: "from", valueName: "T", help: "Start T into the memo.", parser: .duration)
    static let speed = Option<Double>(
        name: "speed", valueName: "X", help: "Play X times as fast, the pitch kept: 0.5 to 3 (1.5, 2x).",
        defaultDescription: "1", parser: suffixed(.number(in: 0.5...3), by: ["x", "×"]))
    static let pitch = Option<Double>(
        name: "pitch", valueName: "SEMITONES", help: "Shift the pitch, the speed kept: -12 to 12 semitones.",
        defaultDescription: "0", parser: .number(in: -12...12, unit: "semitones"))
    static let volume = Option<Double>(
        name: "volume", valueName: "PERCENT",
        help: "The volume, 0 to 150 (50, 120%); above 100 can clip, and says how often it did.",
        defaultDescription: "100", parser: suffixed(.number(in: 0...150, unit: "%"), by: ["%"]))
    static let skipSilence = Flag(
        name: "skip-silence", help: "Skip pauses longer than a quarter second; says how much was skipped.")

    static let enhance = Flag(
        name: "enhance", help: "Suppress the background noise while playing, as 'voicememo enhance' does (the memo stays as it is).")

    static let memoOrURL = Positional<String>(
        name: "MEMO",
        help: SharedArguments.memo.help
            + " An http:// or https:// URL plays that stream (MP3, AAC, Ogg Vorbis/Opus, FLAC, WAV) while it downloads.",
        parser: ValueParser.nonEmptyText.completing(.memo))
    static let json = Flag(
        name: "json", help: "For a URL: print one JSON event per line (buffering, playing, title, slow, reconnecting, finished, failed).")
    static let timeout = Option<Duration>(
        name: "timeout", valueName: "T", help: "For a URL: give up after T without a single byte, at connect or while playing (a slow server is said, not dropped).",
        defaultDescription: "10s", parser: .positiveDuration)
    static let reconnect = Option<Int>(
        name: "reconnect", valueName: "N",
        help: "For a URL: reconnect a dropped live stream (one without a length whose server speaks ICY) up to N times "
            + "in a row, waiting 0.5 s, 1 s, 2 s … up to 8 s (0: never). A file sent until the connection closes ends there.",
        defaultDescription: "5", parser: .integer(in: 0...100))
    static let certificateAuthorities = Option<String>(
        name: "ca-file", valueName: "PATH",
        help: "For an https URL: trust the certificate authorities in this PEM file instead of the system's "
            + "(also VOICEMEMO_CA_FILE). Certificates are always verified.",
        parser: ValueParser.nonEmptyText.completing(.file))

    static let specification = CommandSpecification(
        name: "play", abstract: "Play a memo, or a network stream.",
        discussion: "With --speed, --pitch, --volume or --skip-silence the memo is decoded to floating "
            + "point and processed (SoundTouch for speed and pitch); without them it plays sample for "
            + "sample as it is stored. A URL plays after half a second of audio is buffered, shows the "
            + "stream's name and its ICY title as it changes, and ends with exit 1 naming the cause when the "
            + "server answers with an error, times out, drops the connection, redirects to a URL that is not "
            + "http(s) or sends no audio.",
        options: [device, start, speed, pitch, volume, skipSilence, enhance, json, timeout, reconnect, certificateAuthorities],
        positionals: [memoOrURL])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> PlayOptions {
        PlayOptions(
            memo: try arguments.requiredValue(of: memoOrURL),
            device: try arguments.value(of: device),
            start: try arguments.value(of: start),
            speed: try arguments.value(of: speed),
            pitch: try arguments.value(of: pitch),
            volume: try arguments.value(of: volume),
            skipsSilence: arguments.isSet(skipSilence),
            enhances: arguments.isSet(enhance),
            json: arguments.isSet(json),
            timeout: try arguments.value(of: timeout),
            reconnectAttempts: try arguments.value(of: reconnect),
            certificateAuthorities: try arguments.value(of: certificateAuthorities))
    }

    /// `parser`, also accepting the value followed by one of `suffixes` (`2x`, `120%`).
    static func suffixed(_ parser: ValueParser<Double>, by suffixes: [String]) -> ValueParser<Double> {
        ValueParser { text throws(ValueRejection) in
            let trimmed = suffixes.first(where: { text.hasSuffix($0) && text.count > $0.count })
                .map { String(text.dropLast($0.count)) } ?? text
            return try parser.parse(trimmed)
        }
    }

    static func run(_ options: PlayOptions, context: CommandContext) throws -> ExitCode {
        if StreamURL.isStreamURL(options.memo) {
            return try StreamPlayRunner.run(StreamPlayRequest(options, context: context), console: context.console)
        }
        return try PlayRunner.run(PlayRequest(options, context: context), console: context.console)
    }
}
