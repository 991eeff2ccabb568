import ArgumentParsing

/// `voicememo star MEMO [--off]`: makes a memo a favourite, or (`--off`) no longer one.
enum StarCommand: SubcommandDefinition {
    static let off = Flag(name: "off", help: "Take the star away instead.")

    static let specification = CommandSpecification(
        name: "star", abstract: "Star a memo as a favourite (list --starred lists them).",
        options: [off], positionals: [SharedArguments.memo])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> StarOptions {
        StarOptions(memo: try arguments.requiredValue(of: SharedArguments.memo), starred: !arguments.isSet(off))
    }

    static func run(_ options: StarOptions, context: CommandContext) throws -> ExitCode {
        try StarRunner.run(options, context: context)
    }
}

/// `voicememo unstar MEMO`: the same as `star MEMO --off`.
enum UnstarCommand: SubcommandDefinition {
    static let specification = CommandSpecification(
        name: "unstar", abstract: "Take a memo's star away (the same as star --off).",
        positionals: [SharedArguments.memo])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> StarOptions {
        StarOptions(memo: try arguments.requiredValue(of: SharedArguments.memo), starred: false)
    }

    static func run(_ options: StarOptions, context: CommandContext) throws -> ExitCode {
        try StarRunner.run(options, context: context)
    }
}
