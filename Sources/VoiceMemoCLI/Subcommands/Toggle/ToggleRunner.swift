import Glibc
import Platform
import Vocabulary

/// `toggle`: the running recording's process stops it (or the app starts one), a `record`'s
/// save waited for; with nothing running, a background `record` starts.
enum ToggleRunner {
    static func run(_ options: ToggleOptions, context: CommandContext) throws -> ExitCode {
        try HotkeyNotice.reporting(context) {
            // Two presses at once take turns: the second stops what the first started, rather
            // than starting a second recording beside it.
            let turn = try BackgroundRecording.takeTurn(environment: context.environment)
            defer { if let turn { close(turn) } }
            let before = try ControlConnection.currentStatus(context: context)
            if let reply = try ControlConnection.ask(.toggle, environment: context.environment) {
                switch reply {
                case .ok(let text):
                    context.console.printLine(text)
                    guard let saved = ControlConnection.waitForSave(of: before, context: context) else { return text }
                    context.console.printLine(saved)
                    return saved
                case .error(let text): throw CommandFailure(text)
                case .status: throw CommandFailure("the control socket answered toggle with a status")
                }
            }
            let started = try BackgroundRecording.start(context: context)
            context.console.printLine(
                "recording memo \(started.memo.map(String.init) ?? "?") in the background (pid \(started.pid)); "
                    + "`voicememo toggle` stops it; its output goes to \(started.log)")
            return "recording in the background; toggle again to stop and save"
        }
    }
}
