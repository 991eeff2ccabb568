import ArgumentParsing

/// `voicememo status [--json]`: what records in the library now.
enum StatusCommand: SubcommandDefinition {
    static let json = Flag(name: "json", help: "Print one JSON object.")

    static let specification = CommandSpecification(
        name: "status", abstract: "Say what records in the library now: the app or a `record`, and how far.",
        discussion: "Asks whichever voicememo serves the library's control socket: which process (app or record, "
            + "its pid), whether it records, is paused or is idle, the seconds recorded, and the memo's id and title. "
            + "With nothing running it says so (exit 0), with the last line of the last background recording's log "
            + "when that recording failed. --json prints {\"running\", \"process\", \"state\", \"elapsed\", \"pid\", "
            + "\"memo\", \"title\"} (and \"lastError\" when nothing runs). " + ControlDiscussion.paths,
        options: [json])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> StatusOptions {
        StatusOptions(json: arguments.isSet(json))
    }

    static func run(_ options: StatusOptions, context: CommandContext) throws -> ExitCode {
        try StatusRunner.run(options, context: context)
    }
}
