import ArgumentParsing
import SoundFiles
import Vocabulary

/// `voicememo mark MEMO AT [--label TEXT]`: add a marker to a memo; `voicememo mark [--label TEXT]`:
/// a marker in the running recording.
enum MarkCommand: SubcommandDefinition {
    static let memo = Positional<String>(
        name: "MEMO", help: SharedArguments.memo.help + " Without MEMO and AT, the marker goes into the running recording.",
        isOptional: true, parser: SharedArguments.memo.parser)
    static let time = Positional<Duration>(
        name: "AT", help: "Where, from the memo's start: 90, 1.5s, 2m, 01:30.", isOptional: true, parser: .duration)
    static let label = Option<String>(
        name: "label", valueName: "TEXT", help: "What the marker says (one line).", parser: .nonEmptyText)

    static let specification = CommandSpecification(
        name: "mark", abstract: "Add a marker to a memo, or to the running recording.",
        discussion: markerDiscussion,
        options: [label], positionals: [memo, time])

    /// Where markers are kept, the formats taken from `FileMarkers.canHold`, so the help
    /// follows the code.
    static var markerDiscussion: String {
        let (held, notHeld) = FileFormat.allCases.reduce(into: ([String](), [String]())) { lists, format in
            if FileMarkers.canHold(format) { lists.0.append(format.displayName) } else { lists.1.append(format.displayName) }
        }
        return "Markers are kept in the memo index (list --json shows them, export --labels writes them "
            + "as an Audacity label track) and written into the memo's file for \(listed(held)) "
            + "(cue points, marks or chapter comments), so an index rebuilt from the files keeps them; "
            + "VoiceMemo writes none into \(listed(notHeld)) files: theirs are in the index only. "
            + "AT is at most the memo's length. "
            + "Without MEMO and AT, whichever voicememo serves the library's control socket (the app or a `record`) "
            + "adds the marker at the recording's current position (exit 1 when nothing records); its label is "
            + "then at most \(ControlRequest.longestLabel) characters, without control characters."
    }

    private static func listed(_ names: [String]) -> String {
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
    }

    static func options(from arguments: ParsedArguments) throws(UsageError) -> MarkOptions {
        let memo = try arguments.value(of: memo)
        let time = try arguments.value(of: time)
        if memo != nil, time == nil {
            throw .missingArgument(Self.time.name)
        }
        return MarkOptions(memo: memo, time: time, label: try arguments.value(of: label))
    }

    static func run(_ options: MarkOptions, context: CommandContext) throws -> ExitCode {
        try MarkRunner.run(options, context: context)
    }
}
