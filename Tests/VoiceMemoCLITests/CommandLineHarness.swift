import Synchronization
import VoiceMemoCLI

/// What one run of the command line did: its exit code and everything it printed.
struct CommandLineOutcome {
    let exitCode: ExitCode
    let standardOutput: String
    let standardError: String
}

/// Collects what a ``Console`` prints, for tests.
final class CapturedText: Sendable {
    private let output = Mutex("")
    private let error = Mutex("")

    var console: Console {
        Console(
            writeOutput: { text in self.output.withLock { $0 += text } },
            writeError: { text in self.error.withLock { $0 += text } })
    }

    var standardOutput: String { output.withLock { $0 } }
    var standardError: String { error.withLock { $0 } }
}

/// Keeps the last value an implementation received, for tests.
final class ReceivedValue<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)

    func store(_ value: Value) {
        storage.withLock { $0 = value }
    }

    var value: Value? { storage.withLock { $0 } }
}

/// Runs `voicememo` with `arguments` (without the program name), capturing its output.
func runCommandLine(
    _ arguments: [String], environment: [String: String] = [:],
    implementations: CommandImplementations = CommandImplementations()
) -> CommandLineOutcome {
    let captured = CapturedText()
    let exitCode = VoiceMemoCLI.run(
        arguments, context: CommandContext(console: captured.console, environment: environment),
        implementations: implementations)
    return CommandLineOutcome(
        exitCode: exitCode, standardOutput: captured.standardOutput, standardError: captured.standardError)
}
