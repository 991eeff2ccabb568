/// `pause`: the recording's process pauses or resumes it.
enum PauseRunner {
    static func run(_ options: PauseOptions, context: CommandContext) throws -> ExitCode {
        try HotkeyNotice.reporting(context) {
            guard case .ok(let text) = try ControlConnection.require(.pause, context: context) else { return "" }
            context.console.printLine(text)
            return text
        }
    }
}
