import ArgumentParsing

/// `voicememo transcribe MEMO [--json] [--again]`: what was said in a memo, word by word.
enum TranscribeCommand: SubcommandDefinition {
    static let json = Flag(
        name: "json",
        help: "Print one JSON object: id, words (each with word, start and end in seconds, and in a "
            + "meeting speaker: Me or Them) and text.")
    static let again = Flag(name: "again", help: "Transcribe again even when the index holds a transcript.")

    static let specification = CommandSpecification(
        name: "transcribe",
        abstract: "Transcribe a memo offline (PocketSphinx, English only) and store its words for search.",
        options: [json, again], positionals: [SharedArguments.memo])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> TranscribeOptions {
        TranscribeOptions(
            memo: try arguments.requiredValue(of: SharedArguments.memo), json: arguments.isSet(json),
            again: arguments.isSet(again))
    }

    static func run(_ options: TranscribeOptions, context: CommandContext) throws -> ExitCode {
        try TranscribeRunner.run(options, context: context)
    }
}
