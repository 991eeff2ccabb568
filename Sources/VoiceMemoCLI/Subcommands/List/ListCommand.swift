import ArgumentParsing
import Interface
import Vocabulary

/// `voicememo list [--json] [--deleted] [--no-wait] [--tag TAG]... [--starred] [--filter QUERY]`:
/// the memos in the library, newest first.
enum ListCommand: SubcommandDefinition {
    static let json = Flag(name: "json", help: "Print a JSON array of memos.")
    static let deleted = Flag(name: "deleted", help: "List Recently Deleted instead.")
    static let noWait = Flag(
        name: "no-wait",
        help: "List at once: recordings that were killed stay listed as recording, unrecovered, instead of being recovered first (encoding a killed MP3 or Ogg Vorbis can take a minute per hour of audio).")

    static let tag = Option<String>(
        name: "tag", valueName: "TAG", help: "Only memos with this tag; give it again for memos with every tag given.",
        isRepeatable: true,
        parser: ValueParser { text throws(ValueRejection) in
            do throws(MemoTag.Problem) {
                return try MemoTag.accepted(text)
            } catch {
                throw .custom(problem: "is not a tag", allowed: error.description)
            }
        })
    static let starred = Flag(name: "starred", help: "Only starred memos (favourites).")
    static let filter = Option<String>(
        name: "filter", valueName: "QUERY",
        help: "Only memos the app's / filter lists: words in the title or spoken, and tag:T, is:starred, said:WORD, "
            + "before:YYYY-MM-DD, after:YYYY-MM-DD, longer:5m, shorter:90s, all of them.",
        parser: ValueParser { text throws(ValueRejection) in
            if let problem = MemoQuery(text).problem { throw .custom(problem: "is not a filter", allowed: problem) }
            return text
        })

    static let specification = CommandSpecification(
        name: "list", abstract: "List the memos in the library, newest first.",
        options: [json, deleted, noWait, tag, starred, filter])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> ListOptions {
        ListOptions(
            json: arguments.isSet(json), deleted: arguments.isSet(deleted), noWait: arguments.isSet(noWait),
            tags: try arguments.values(of: tag), starred: arguments.isSet(starred), filter: try arguments.value(of: filter))
    }

    static func run(_ options: ListOptions, context: CommandContext) throws -> ExitCode {
        try ListRunner.run(options, context: context)
    }
}
