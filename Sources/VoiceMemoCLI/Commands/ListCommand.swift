import ArgumentParsing

/// `voicememo list [--json] [--deleted]`: the memos in the library, newest first.
enum ListCommand: SubcommandDefinition {
    static let json = Flag(name: "json", help: "Print a JSON array of memos.")
    static let deleted = Flag(name: "deleted", help: "List Recently Deleted instead.")

    static let specification = CommandSpecification(
        name: "list", abstract: "List the memos in the library, newest first.",
        options: [json, deleted])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> ListOptions {
        ListOptions(json: arguments.isSet(json), deleted: arguments.isSet(deleted))
    }

    static func implementation(in implementations: CommandImplementations) -> CommandImplementation<ListOptions>? {
        implementations.list
    }
}
