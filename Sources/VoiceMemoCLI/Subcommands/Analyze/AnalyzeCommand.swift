import ArgumentParsing

/// `voicememo analyze FILE|MEMO [--json]`: peak, true peak, loudness and loudness range of a file.
enum AnalyzeCommand: SubcommandDefinition {
    static let file = Positional<String>(
        name: "FILE|MEMO",
        help: "A sound file in any format libsndfile reads (WAV, FLAC, Ogg, MP3, CAF, AIFF, …), "
            + "or a memo by id (all digits is only ever an id) or unique title prefix (title:TEXT is always a title).",
        parser: ValueParser.nonEmptyText.completing(.memoOrFile))
    static let json = Flag(
        name: "json",
        help: "Print one JSON object: file, duration, sample_rate, channels, peak_db, "
            + "true_peak_dbtp, loudness_lufs, lra, clips.")

    static let specification = CommandSpecification(
        name: "analyze",
        abstract: "Measure a sound file: peak, true peak, loudness (EBU R128), loudness range, clips.",
        options: [json], positionals: [file])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> AnalyzeOptions {
        AnalyzeOptions(path: try arguments.requiredValue(of: file), json: arguments.isSet(json))
    }

    static func run(_ options: AnalyzeOptions, context: CommandContext) throws -> ExitCode {
        try AnalyzeRunner.run(options, context: context)
    }
}
