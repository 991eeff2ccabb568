import ArgumentParsing

/// `voicememo rename MEMO TITLE`.
enum RenameCommand: SubcommandDefinition {
    static let title = Positional<String>(
        name: "TITLE", help: "The new title.", parser: .nonEmptyText)

    static let specification = CommandSpecification(
        name: "rename", abstract: "Give a memo a new title.",
        positionals: [SharedArguments.memo, title])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> RenameOptions {
        RenameOptions(
            memo: try arguments.requiredValue(of: SharedArguments.memo),
            title: try arguments.requiredValue(of: title))
    }

    static func run(_ options: RenameOptions, context: CommandContext) throws -> ExitCode {
        try RenameRunner.run(options, context: context)
    }
}
