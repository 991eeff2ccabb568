import ArgumentParsing

/// `voicememo search WORDS... [--json]`: memos by their titles and what was said in them.
enum SearchCommand: SubcommandDefinition {
    static let words = Positional<String>(
        name: "WORDS",
        help: "The words to look for, quoted or not: a memo matches when its title holds them (as "
            + "typed) or its transcript holds all of them, as the app's / finds it; case and "
            + "punctuation are ignored.",
        takesTheRest: true, parser: .nonEmptyText)
    static let json = Flag(
        name: "json",
        help: "Print a JSON array of hits: id, title, path, matched (transcript or title), time (s) of "
            + "the first word and snippet (null for a title's match); a meeting's hit also has speaker "
            + "(Me or Them) of that word.")

    static let specification = CommandSpecification(
        name: "search", abstract: "Find memos by their titles and the words spoken in them (their transcripts).",
        discussion: "Exits 0 when a memo matches and 1 when none does, as grep does (with --json, "
            + "after printing []); 2 for a usage error.",
        options: [json], positionals: [words])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> SearchOptions {
        SearchOptions(words: try arguments.requiredValue(of: words), json: arguments.isSet(json))
    }

    static func run(_ options: SearchOptions, context: CommandContext) throws -> ExitCode {
        try SearchRunner.run(options, context: context)
    }
}
