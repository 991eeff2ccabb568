import ArgumentParsing

/// `voicememo tag MEMO [+TAG | -TAG | TAG]...`: changes a memo's tags, or prints them.
enum TagCommand: SubcommandDefinition {
    static let changes = Positional<String>(
        name: "TAGS",
        help: "+TAG adds a tag, -TAG removes one; plain TAG words are the memo's whole list of tags. "
            + "None: print the memo's tags, one a line.",
        isOptional: true, takesTheRest: true, parser: ValueParser { text throws(ValueRejection) in text })

    static let specification = CommandSpecification(
        name: "tag", abstract: "Add or remove a memo's tags, or print them.",
        discussion: "A tag is one word of at most 64 characters, without spaces or control characters; "
            + "tags are kept in lower case (Work and work are one tag).",
        positionals: [SharedArguments.memo, changes], takesDashedWords: true)

    static func options(from arguments: ParsedArguments) throws(UsageError) -> TagOptions {
        TagOptions(memo: try arguments.requiredValue(of: SharedArguments.memo), changes: arguments.words(of: changes))
    }

    static func run(_ options: TagOptions, context: CommandContext) throws -> ExitCode {
        try TagRunner.run(options, context: context)
    }
}
