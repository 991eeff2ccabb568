import ArgumentParsing

/// `voicememo meter [--source S] [--duration T] [--loudness] [--json]`: show levels, save nothing.
enum MeterCommand: SubcommandDefinition {
    static let duration = Option<Duration>(
        name: "duration", shortName: "d", valueName: "T",
        help: "Stop after T: 90, 1.5s, 250ms, 2m, 1h, 01:30 or 1:02:03.",
        defaultDescription: "until Ctrl-C", parser: .duration)
    static let json = Flag(
        name: "json",
        help: "Print one JSON object per update, then a summary object with \"summary\": true.")
    static let loudness = Flag(
        name: "loudness",
        help: "Also measure loudness (EBU R128: momentary and short-term LUFS per update; "
            + "integrated LUFS, loudness range and true peak in the summary).")

    static let specification = CommandSpecification(
        name: "meter",
        abstract: "Show the input levels (average and peak dBFS per channel); nothing is saved.",
        options: [SharedArguments.source, duration, loudness, json])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> MeterOptions {
        MeterOptions(
            source: try arguments.value(of: SharedArguments.source),
            duration: try arguments.value(of: duration),
            json: arguments.isSet(json),
            loudness: arguments.isSet(loudness))
    }

    static func implementation(in implementations: CommandImplementations) -> CommandImplementation<MeterOptions>? {
        implementations.meter
    }
}
