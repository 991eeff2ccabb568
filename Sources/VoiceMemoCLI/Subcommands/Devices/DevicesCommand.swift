import ArgumentParsing

/// `voicememo devices`: the capture and playback devices.
enum DevicesCommand: SubcommandDefinition {
    static let specification = CommandSpecification(
        name: "devices", abstract: "List the capture and playback devices.")

    static func options(from arguments: ParsedArguments) throws(UsageError) -> DevicesOptions {
        DevicesOptions()
    }

    static func run(_ options: DevicesOptions, context: CommandContext) throws -> ExitCode {
        DevicesRunner.run(console: context.console)
    }
}
