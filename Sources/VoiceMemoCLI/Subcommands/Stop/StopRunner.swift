/// `stop`: the recording's process stops and saves it; a `record`'s save is waited for.
enum StopRunner {
    static func run(_ options: StopOptions, context: CommandContext) throws -> ExitCode {
        try HotkeyNotice.reporting(context) {
            let before = try ControlConnection.currentStatus(context: context)
            guard case .ok(let text) = try ControlConnection.require(.stop, context: context) else { return "" }
            context.console.printLine(text)
            guard let saved = ControlConnection.waitForSave(of: before, context: context) else { return text }
            context.console.printLine(saved)
            return saved
        }
    }
}
