/// `stop`: the recording's process stops and saves it.
enum StopRunner {
    static func run(_ options: StopOptions, context: CommandContext) throws -> ExitCode {
        try HotkeyNotice.reporting(context) {
            guard case .ok(let text) = try ControlConnection.require(.stop, context: context) else { return "" }
            context.console.printLine(text)
            return text
        }
    }
}
