import ArgumentParsing

/// `voicememo waveform MEMO [--width N] [--json]`: a memo's peak envelope, drawn or as JSON.
enum WaveformCommand: SubcommandDefinition {
    static let width = Option<Int>(
        name: "width", valueName: "N", help: "Columns of the drawing (or of the JSON's peaks).",
        defaultDescription: "the terminal's width, else 80", parser: .integer(in: 1...10_000))

    static let specification = CommandSpecification(
        name: "waveform", abstract: "Draw a memo's waveform (its peaks over time).",
        discussion: "One line of block glyphs, a column per slice of the memo, its height the slice's "
            + "peak from -60 dBFS (blank) to 0 dBFS (a full block). Drawn from the envelope kept in the "
            + "index, not from the audio; a memo without one (recorded before it was kept, adopted, "
            + "recovered) is measured once and the envelope stored. --json prints "
            + "{\"id\", \"duration\", \"width\", \"peaks_db\": [one dBFS per column, -160 for silence]}.",
        options: [width, SharedArguments.json], positionals: [SharedArguments.memo])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> WaveformOptions {
        WaveformOptions(
            memo: try arguments.requiredValue(of: SharedArguments.memo), width: try arguments.value(of: width),
            json: arguments.isSet(SharedArguments.json))
    }

    static func run(_ options: WaveformOptions, context: CommandContext) throws -> ExitCode {
        try WaveformRunner.run(options, context: context)
    }
}
