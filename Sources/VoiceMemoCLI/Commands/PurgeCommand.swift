import ArgumentParsing

/// `voicememo purge [MEMO | --all]`: delete for good from Recently Deleted.
enum PurgeCommand: SubcommandDefinition {
    static let memo = Positional<String>(
        name: "MEMO", help: "The deleted memo: its id (all digits is only ever an id), else its title or a unique "
            + "prefix of it; title:TEXT is always a title.",
        isOptional: true, parser: ValueParser.nonEmptyText.completing(.memo))
    static let all = Flag(name: "all", help: "Purge everything in Recently Deleted.")

    static let specification = CommandSpecification(
        name: "purge", abstract: "Delete memos in Recently Deleted for good.",
        discussion: "Give either MEMO or --all.", options: [all], positionals: [memo])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> PurgeOptions {
        switch (try arguments.value(of: memo), arguments.isSet(all)) {
        case (let reference?, false): PurgeOptions(target: .memo(reference))
        case (nil, true): PurgeOptions(target: .all)
        case (_?, true): throw .conflictingArguments(memo.name, all.longForm)
        case (nil, false): throw .missingAlternative([memo.name, all.longForm])
        }
    }

    static func implementation(in implementations: CommandImplementations) -> CommandImplementation<PurgeOptions>? {
        implementations.purge
    }
}
