import ArgumentParsing

/// `voicememo split MEMO AT [--json]`.
enum SplitCommand: SubcommandDefinition {
    static let time = Positional<Duration>(
        name: "AT", help: "Where, from the memo's start: 90, 1.5s, 2m, 01:30.", parser: .duration)

    static let specification = CommandSpecification(
        name: "split", abstract: "Split a memo in two at a time.",
        discussion: "Makes 'TITLE (1)' (up to AT) and 'TITLE (2)' (from AT), whose frames add up to the "
            + "original's exactly; copied as trim copies (PCM, FLAC and ALAC unchanged). The original goes "
            + "to Recently Deleted whole. Markers go with their half. Prints the two new ids.",
        options: [SharedArguments.json], positionals: [SharedArguments.memo, time])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> SplitOptions {
        SplitOptions(
            memo: try arguments.requiredValue(of: SharedArguments.memo), time: try arguments.requiredValue(of: time),
            json: arguments.isSet(SharedArguments.json))
    }

    static func run(_ options: SplitOptions, context: CommandContext) throws -> ExitCode {
        try SplitRunner.run(options, context: context)
    }
}
