import ArgumentParsing

/// `voicememo list [--json] [--deleted] [--no-wait]`: the memos in the library, newest first.
enum ListCommand: SubcommandDefinition {
    static let json = Flag(name: "json", help: "Print a JSON array of memos.")
    static let deleted = Flag(name: "deleted", help: "List Recently Deleted instead.")
    static let noWait = Flag(
        name: "no-wait",
        help: "List at once: recordings that were killed stay listed as recording, unrecovered, instead of being recovered first (encoding a killed MP3 or Ogg Vorbis can take a minute per hour of audio).")

    static let specification = CommandSpecification(
        name: "list", abstract: "List the memos in the library, newest first.",
        options: [json, deleted, noWait])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> ListOptions {
        ListOptions(json: arguments.isSet(json), deleted: arguments.isSet(deleted), noWait: arguments.isSet(noWait))
    }

    static func run(_ options: ListOptions, context: CommandContext) throws -> ExitCode {
        try ListRunner.run(options, context: context)
    }
}
