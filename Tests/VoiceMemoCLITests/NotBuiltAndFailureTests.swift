import ArgumentParsing
import Testing
import VoiceMemoCLI

@Suite("Subcommands that are not built, and failures")
struct NotBuiltAndFailureTests {
    @Test(
        "not built yet, after checking arguments",
        arguments: [
            ["record"], ["meter"], ["list"], ["play", "x"], ["rename", "x", "y"], ["delete", "x"],
            ["restore", "x"], ["purge", "--all"], ["recover"], ["export", "x", "y.wav"], ["devices"],
        ])
    func notBuilt(arguments: [String]) {
        let outcome = runCommandLine(arguments)
        #expect(outcome.exitCode == .usageError)
        #expect(outcome.standardError == "voicememo: '\(arguments[0])' is not built yet\n")
        #expect(outcome.standardOutput == "")
    }

    @Test func theAppIsNotBuiltYet() {
        let outcome = runCommandLine([])
        #expect(outcome.exitCode == .usageError)
        #expect(outcome.standardError == "voicememo: the full-screen app is not built yet\n")
    }

    @Test func builtInTableRunsTheSameWay() {
        let captured = CapturedText()
        let status = VoiceMemoCLI.main(["voicememo", "record", "--rate", "abc"], environment: [:], console: captured.console)
        #expect(status == 2)
        #expect(captured.standardError.hasPrefix("voicememo: --rate: \"abc\""))
    }

    @Test func failuresCarryTheirExitCode() {
        var implementations = CommandImplementations()
        implementations.delete = { _, _ in throw CommandFailure("no memo matches 'x'") }
        implementations.restore = { _, _ in throw CommandFailure("interrupted", exitCode: .interrupted) }
        implementations.list = { _, _ in throw UsageError.conflictingArguments("--json", "--deleted") }
        implementations.devices = { _, context in
            context.console.printLine("hw:0")
            return .interrupted
        }

        let delete = runCommandLine(["delete", "x"], implementations: implementations)
        #expect(delete.exitCode == .failure)
        #expect(delete.standardError == "voicememo: no memo matches 'x'\n")
        #expect(runCommandLine(["restore", "x"], implementations: implementations).exitCode == .interrupted)
        let list = runCommandLine(["list"], implementations: implementations)
        #expect(list.exitCode == .usageError)
        #expect(list.standardError.hasSuffix("Run 'voicememo list --help' for usage.\n"))
        let devices = runCommandLine(["devices"], implementations: implementations)
        #expect(devices.exitCode.rawValue == 130)
        #expect(devices.standardOutput == "hw:0\n")
    }
}
