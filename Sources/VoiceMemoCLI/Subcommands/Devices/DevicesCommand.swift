import ArgumentParsing

/// `voicememo devices`: the capture and playback devices.
enum DevicesCommand: SubcommandDefinition {
    static let all = Flag(
        name: "all",
        help: "List ALSA's helper plugins too (rate converters, channel mixers, dmix, speex, null): each opens, but none is a "
            + "device of its own.")

    static let specification = CommandSpecification(
        name: "devices", abstract: "List the capture and playback devices.", options: [all])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> DevicesOptions {
        DevicesOptions(all: arguments.isSet(all))
    }

    static func run(_ options: DevicesOptions, context: CommandContext) throws -> ExitCode {
        DevicesRunner.run(options, console: context.console)
    }
}
