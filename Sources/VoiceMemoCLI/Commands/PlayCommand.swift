import ArgumentParsing

/// `voicememo play MEMO [--device D] [--from T]`: play a memo.
enum PlayCommand: SubcommandDefinition {
    static let device = Option<String>(
        name: "device", valueName: "D", help: "The ALSA playback device.",
        defaultDescription: "default", parser: .nonEmptyText)
    static let start = Option<Duration>(
        name: "from", valueName: "T", help: "Start T into the memo.", parser: .duration)

    static let specification = CommandSpecification(
        name: "play", abstract: "Play a memo.", options: [device, start],
        positionals: [SharedArguments.memo])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> PlayOptions {
        PlayOptions(
            memo: try arguments.requiredValue(of: SharedArguments.memo),
            device: try arguments.value(of: device),
            start: try arguments.value(of: start))
    }

    static func implementation(in implementations: CommandImplementations) -> CommandImplementation<PlayOptions>? {
        implementations.play
    }
}
