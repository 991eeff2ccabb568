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

    static let alertAbove = Option<Double>(
        name: "alert-above", valueName: "DB",
        help: "Noise alert: ring the bell and print a line (a JSON event with --json) when the level "
            + "(RMS over 200 ms) stays above DB dBFS; once per crossing, again after it has fallen 6 dB under.",
        parser: .number(in: -160...0, unit: "dB"))
    static let alertFor = Option<Duration>(
        name: "for", valueName: "T",
        help: "With --alert-above: how long the level must stay above DB (dips under 0.3 s do not count).",
        defaultDescription: "at once", parser: .duration)
    static let alertExec = Option<[String]>(
        name: "exec", valueName: "CMD",
        help: "With --alert-above: run CMD at each alert (words as a shell splits them, nothing expanded; "
            + "VOICEMEMO_ALERT_LEVEL, VOICEMEMO_ALERT_TIME, VOICEMEMO_ALERT_THRESHOLD and VOICEMEMO_ALERT_FOR "
            + "in its environment).",
        parser: .words)

    static let specification = CommandSpecification(
        name: "meter",
        abstract: "Show the input levels (average and peak dBFS per channel); nothing is saved.",
        options: [SharedArguments.source, duration, loudness, json, alertAbove, alertFor, alertExec])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> MeterOptions {
        var options = MeterOptions(
            source: try arguments.value(of: SharedArguments.source),
            duration: try arguments.value(of: duration),
            json: arguments.isSet(json),
            loudness: arguments.isSet(loudness))
        if let threshold = try arguments.value(of: alertAbove) {
            options.alert = AlertOptions(
                thresholdDB: threshold, duration: try arguments.value(of: alertFor),
                command: try arguments.value(of: alertExec))
        } else if let given = ([alertFor, alertExec] as [any OptionDeclaring]).first(where: { arguments.contains($0) }) {
            throw .missingCompanion(option: given.specification.longForm, requirement: alertAbove.longForm)
        }
        return options
    }

    static func run(_ options: MeterOptions, context: CommandContext) throws -> ExitCode {
        try MeterRunner.run(MeterRequest(options, context: context), console: context.console)
    }
}
