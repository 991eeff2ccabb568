import ArgumentParsing

/// `voicememo purge [MEMO | --all]`: delete for good from Recently Deleted.
enum PurgeCommand: SubcommandDefinition {
    static let memo = Positional<String>(
        name: "MEMO", help: "The deleted memo: its id (all digits is only ever an id), else its title or a unique "
            + "prefix of it; title:TEXT is always a title.",
        isOptional: true, parser: ValueParser.nonEmptyText.completing(.memo))
    static let all = Flag(name: "all", help: "Purge everything in Recently Deleted (asks first on a terminal).")
    static let yes = Flag(name: "yes", help: "With --all: purge without asking (needed when the input is not a terminal).")

    static let specification = CommandSpecification(
        name: "purge", abstract: "Delete memos in Recently Deleted for good.",
        discussion: "Give either MEMO or --all. Purged memos cannot be restored.", options: [all, yes],
        positionals: [memo])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> PurgeOptions {
        if arguments.isSet(yes), !arguments.isSet(all) { throw .missingCompanion(option: yes.longForm, requirement: all.longForm) }
        return switch (try arguments.value(of: memo), arguments.isSet(all)) {
        case (let reference?, false): PurgeOptions(target: .memo(reference))
        case (nil, true): PurgeOptions(target: .all, confirmed: arguments.isSet(yes))
        case (_?, true): throw .conflictingArguments(memo.name, all.longForm)
        case (nil, false): throw .missingAlternative([memo.name, all.longForm])
        }
    }

    static func run(_ options: PurgeOptions, context: CommandContext) throws -> ExitCode {
        try PurgeRunner.run(options, context: context)
    }
}
