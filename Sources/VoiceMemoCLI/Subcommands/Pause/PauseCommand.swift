import ArgumentParsing

/// `voicememo pause`: pause the running recording, or resume it.
enum PauseCommand: SubcommandDefinition {
    static let specification = CommandSpecification(
        name: "pause", abstract: "Pause the running recording, or resume it when paused.",
        discussion: "Asks whichever voicememo serves the library's control socket (the app or a `record`); "
            + "with nothing running it exits 1. " + ControlDiscussion.paths,
        options: [])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> PauseOptions {
        PauseOptions()
    }

    static func run(_ options: PauseOptions, context: CommandContext) throws -> ExitCode {
        try PauseRunner.run(options, context: context)
    }
}
