/// `stop`: the recording's process stops and saves it.
enum StopRunner {
    static func run(_ options: StopOptions, context: CommandContext) throws -> ExitCode {
        if case .ok(let text) = try ControlConnection.require(.stop, context: context) {
            context.console.printLine(text)
        }
        return .success
    }
}
