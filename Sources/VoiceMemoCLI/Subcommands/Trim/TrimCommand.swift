import ArgumentParsing

/// `voicememo trim MEMO [--from T] [--to T] [--remove-silences …] [--json]`.
///
/// Removing silences is a form of trim (it keeps less of one memo, as one new memo under the
/// same title, with the original in Recently Deleted), so it is a flag of `trim` rather than a
/// command of its own, and combines with `--from`/`--to` (silences removed from the kept part).
enum TrimCommand: SubcommandDefinition {
    static let from = Option<Duration>(
        name: "from", valueName: "T", help: "Keep from T (90, 1.5s, 2m, 01:30).",
        defaultDescription: "the start", parser: .duration)
    static let to = Option<Duration>(
        name: "to", valueName: "T", help: "Keep up to T, from the memo's start.",
        defaultDescription: "the end", parser: .duration)
    static let removeSilences = Flag(
        name: "remove-silences", help: "Shorten every pause longer than --keep-pause to that length.")
    static let silenceBelow = Option<Double>(
        name: "silence-below", valueName: "DB", help: "With --remove-silences: a 10 ms block quieter than DB dBFS (RMS) is silence.",
        defaultDescription: "-50", parser: .number(in: -100 ... -10, unit: "dB"))
    static let keepPause = Option<Duration>(
        name: "keep-pause", valueName: "T", help: "With --remove-silences: how much of each pause is kept.",
        defaultDescription: "0.5s", parser: .duration)

    static let specification = CommandSpecification(
        name: "trim", abstract: "Keep part of a memo (or remove its silences) as a new memo.",
        discussion: "The new memo holds exactly the kept frames: PCM, FLAC and ALAC samples are copied "
            + "unchanged; lossy formats (MP3, Ogg Vorbis, Opus, μ-law, A-law, IMA ADPCM) are encoded again, "
            + "and trim says so. The original goes to Recently Deleted whole ('voicememo restore' brings it "
            + "back). The new file is written beside the memo and put in place in one step: an interrupted "
            + "or failed trim (a full disk) leaves the original as it was. Markers move with the audio. "
            + "Prints the new memo's id.",
        options: [from, to, removeSilences, silenceBelow, keepPause, SharedArguments.json],
        positionals: [SharedArguments.memo])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> TrimOptions {
        let options = TrimOptions(
            memo: try arguments.requiredValue(of: SharedArguments.memo),
            from: try arguments.value(of: from), to: try arguments.value(of: to),
            removeSilences: arguments.isSet(removeSilences),
            silenceBelow: try arguments.value(of: silenceBelow), keepPause: try arguments.value(of: keepPause),
            json: arguments.isSet(SharedArguments.json))
        guard options.from != nil || options.to != nil || options.removeSilences else {
            throw UsageError.missingAlternative(["--from T", "--to T", "--remove-silences"])
        }
        if !options.removeSilences {
            if options.silenceBelow != nil { throw UsageError.missingCompanion(option: "--silence-below", requirement: "--remove-silences") }
            if options.keepPause != nil { throw UsageError.missingCompanion(option: "--keep-pause", requirement: "--remove-silences") }
        }
        if let start = options.from, let end = options.to, start >= end {
            throw UsageError.invalidValue(
                argument: "--to", value: ArgumentText.duration(end),
                rejection: .custom(problem: "is not after --from \(ArgumentText.duration(start))", allowed: "give a --to later than --from"))
        }
        return options
    }

    static func run(_ options: TrimOptions, context: CommandContext) throws -> ExitCode {
        try TrimRunner.run(options, context: context)
    }
}

/// Durations as a usage message shows them: seconds, `1.5s`.
enum ArgumentText {
    static func duration(_ value: Duration) -> String {
        let seconds = Double(value.components.seconds) + Double(value.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int64(seconds))s" : "\(seconds)s"
    }
}
