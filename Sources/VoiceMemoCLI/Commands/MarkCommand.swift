import ArgumentParsing

/// `voicememo mark MEMO AT [--label TEXT]`: add a marker to a memo.
enum MarkCommand: SubcommandDefinition {
    static let time = Positional<Duration>(
        name: "AT", help: "Where, from the memo's start: 90, 1.5s, 2m, 01:30.", parser: .duration)
    static let label = Option<String>(
        name: "label", valueName: "TEXT", help: "What the marker says (one line).", parser: .nonEmptyText)

    static let specification = CommandSpecification(
        name: "mark", abstract: "Add a marker to a memo.",
        discussion: "Markers are kept in the memo index (list --json shows them, export --labels "
            + "writes them as an Audacity label track); not yet in the memo's file, so an index "
            + "rebuilt from the files has none.",
        options: [label], positionals: [SharedArguments.memo, time])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> MarkOptions {
        MarkOptions(
            memo: try arguments.requiredValue(of: SharedArguments.memo),
            time: try arguments.requiredValue(of: time),
            label: try arguments.value(of: label))
    }

    static func implementation(in implementations: CommandImplementations) -> CommandImplementation<MarkOptions>? {
        implementations.mark
    }
}
