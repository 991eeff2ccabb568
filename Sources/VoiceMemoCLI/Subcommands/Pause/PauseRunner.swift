/// `pause`: the recording's process pauses or resumes it.
enum PauseRunner {
    static func run(_ options: PauseOptions, context: CommandContext) throws -> ExitCode {
        if case .ok(let text) = try ControlConnection.require(.pause, context: context) {
            context.console.printLine(text)
        }
        return .success
    }
}
