import ArgumentParsing

/// `voicememo delete MEMO`: move a memo to Recently Deleted.
enum DeleteCommand: SubcommandDefinition {
    static let specification = CommandSpecification(
        name: "delete",
        abstract: "Move a memo to Recently Deleted, where it stays for 30 days.",
        positionals: [SharedArguments.memo])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> DeleteOptions {
        DeleteOptions(memo: try arguments.requiredValue(of: SharedArguments.memo))
    }

    static func run(_ options: DeleteOptions, context: CommandContext) throws -> ExitCode {
        try DeleteRunner.run(options, context: context)
    }
}
