import ArgumentParsing

/// `voicememo restore MEMO`: bring a memo back from Recently Deleted.
enum RestoreCommand: SubcommandDefinition {
    static let specification = CommandSpecification(
        name: "restore", abstract: "Bring a memo back from Recently Deleted.",
        positionals: [SharedArguments.memo])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> RestoreOptions {
        RestoreOptions(memo: try arguments.requiredValue(of: SharedArguments.memo))
    }

    static func run(_ options: RestoreOptions, context: CommandContext) throws -> ExitCode {
        try RestoreRunner.run(options, context: context)
    }
}
