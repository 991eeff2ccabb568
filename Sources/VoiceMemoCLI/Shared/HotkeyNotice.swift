import Platform
import Vocabulary

/// A desktop notification (`DesktopNotification`) of what a control command did — `toggle`,
/// `stop`, `pause`, `mark` — for someone who pressed a hotkey and is not looking at a terminal:
/// "Recording started", "Saved “Standup” (00:12:31)", "Failed: …".
///
/// `notify = auto` (the default) shows one when standard output is not a terminal, as when a
/// desktop's hotkey runs the command; `on` shows one always, `off` never. No session bus or no
/// libnotify: nothing is shown, and the command's own output is all there is.
enum HotkeyNotice {
    /// `notify`'s values.
    enum Mode: String, CaseIterable, Sendable {
        case auto, on, off
    }

    /// Runs `body` (which prints its own output and returns its words), then shows those words,
    /// or the failure's, as a notification where `notify` asks for one.
    static func reporting(_ context: CommandContext, _ body: () throws -> String) throws -> ExitCode {
        let mode = try context.configuration().notify ?? .auto
        let wanted = mode == .on || (mode == .auto && !context.console.isOutputTerminal)
        do {
            let text = try body()
            if wanted { show(text, mode: mode, context: context) }
            return .success
        } catch let failure as CommandFailure {
            if wanted { show("Failed: " + failure.message, mode: mode, context: context) }
            throw failure
        }
    }

    private static func show(_ text: String, mode: Mode, context: CommandContext) {
        let body = text.prefix(1).uppercased() + text.dropFirst()
        let shown = DesktopNotification.show(summary: "VoiceMemo", body: TerminalText.safe(body), environment: context.environment)
        // Said where notifications were asked for outright: under `auto` nobody reads it.
        if case .failure(let failure) = shown, mode == .on {
            context.console.printErrorMessage("no desktop notification: \(failure.message)")
        }
    }
}
