import Testing
import VoiceMemoCLI

/// `voicememo analyze`: its arguments reach the implementation, and it is listed.
@Suite struct AnalyzeCommandParsingTests {
    @Test func argumentsBecomeOptions() {
        let received = ReceivedValue<AnalyzeOptions>()
        var implementations = CommandImplementations()
        implementations.analyze = { options, _ in
            received.store(options)
            return .success
        }
        #expect(runCommandLine(["analyze", "take 1.wav", "--json"], implementations: implementations).exitCode == .success)
        #expect(received.value == AnalyzeOptions(path: "take 1.wav", json: true))
        _ = runCommandLine(["analyze", "x.flac"], implementations: implementations)
        #expect(received.value == AnalyzeOptions(path: "x.flac", json: false))
    }

    @Test func notBuiltWithoutAnImplementation() {
        let outcome = runCommandLine(["analyze", "x.wav"])
        #expect(outcome.exitCode == .usageError)
        #expect(outcome.standardError == "voicememo: 'analyze' is not built yet\n")
    }

    @Test func missingFileIsAUsageError() {
        let outcome = runCommandLine(["analyze"], implementations: .builtIn)
        #expect(outcome.exitCode == .usageError)
        #expect(outcome.standardError.contains("missing FILE|MEMO"))
    }

    @Test func topLevelHelpListsIt() {
        #expect(runCommandLine(["--help"]).standardOutput.contains("\n  analyze "))
    }
}
