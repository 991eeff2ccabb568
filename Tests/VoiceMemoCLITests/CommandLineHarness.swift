import Synchronization
@testable import VoiceMemoCLI

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

/// Keeps the last value a subcommand received, for tests.
final class ReceivedValue<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)

    func store(_ value: Value) {
        storage.withLock { $0 = value }
    }

    var value: Value? { storage.withLock { $0 } }
}

/// Runs `voicememo` with `arguments` (without the program name), capturing its output.
///
/// Arguments that parse run the real subcommand: use ``parseCommandLine(_:_:)`` to check what
/// a valid command line becomes without running it.
func runCommandLine(_ arguments: [String], environment: [String: String] = [:]) -> CommandLineOutcome {
    let captured = CapturedText()
    let exitCode = VoiceMemoCLI.run(arguments, context: CommandContext(console: captured.console, environment: environment))
    return CommandLineOutcome(
        exitCode: exitCode, standardOutput: captured.standardOutput, standardError: captured.standardError)
}

/// Runs `subcommand` through the command line with `arguments` (those after its name) and
/// `perform` in place of the subcommand's own run, capturing the output: the command line's
/// parsing, help and error reporting, without touching the library or a sound card.
func runSubcommand(
    _ subcommand: Subcommand, _ arguments: [String], environment: [String: String] = [:]
) -> CommandLineOutcome {
    let captured = CapturedText()
    let runner = CommandLineRunner(context: CommandContext(console: captured.console, environment: environment))
    let exitCode = runner.run(subcommand, arguments: arguments)
    return CommandLineOutcome(
        exitCode: exitCode, standardOutput: captured.standardOutput, standardError: captured.standardError)
}

/// Parses `arguments` (those after the subcommand's name) the way the command line does for
/// `definition`, and returns what was printed and the options its run would receive (nil when
/// the arguments are refused or help is asked for). Nothing runs.
func parseCommandLine<Definition: SubcommandDefinition>(
    _ definition: Definition.Type, _ arguments: [String]
) -> (outcome: CommandLineOutcome, options: Definition.Options?) {
    let received = ReceivedValue<Definition.Options>()
    let subcommand = Subcommand(
        specification: definition.specification,
        perform: { parsed, _ in
            received.store(try definition.options(from: parsed))
            return .success
        })
    let outcome = runSubcommand(subcommand, arguments)
    return (outcome, received.value)
}
