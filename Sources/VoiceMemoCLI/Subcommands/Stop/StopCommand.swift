import ArgumentParsing

/// `voicememo stop`: stop and save the running recording.
enum StopCommand: SubcommandDefinition {
    static let specification = CommandSpecification(
        name: "stop", abstract: "Stop and save the running recording.",
        discussion: "Asks whichever voicememo serves the library's control socket: the app saves as its s key does, "
            + "a `record` as Ctrl-C does. With nothing running it exits 1. " + ControlDiscussion.paths,
        options: [])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> StopOptions {
        StopOptions()
    }

    static func run(_ options: StopOptions, context: CommandContext) throws -> ExitCode {
        try StopRunner.run(options, context: context)
    }
}
