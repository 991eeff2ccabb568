import Testing
@testable import VoiceMemoCLI

/// `voicememo analyze`: its arguments become its options, and it is listed.
@Suite struct AnalyzeCommandParsingTests {
    @Test func argumentsBecomeOptions() {
        let (outcome, options) = parseCommandLine(AnalyzeCommand.self, ["take 1.wav", "--json"])
        #expect(outcome.exitCode == .success)
        #expect(options == AnalyzeOptions(path: "take 1.wav", json: true))
        #expect(parseCommandLine(AnalyzeCommand.self, ["x.flac"]).options == AnalyzeOptions(path: "x.flac", json: false))
    }

    @Test func missingFileIsAUsageError() {
        let outcome = runCommandLine(["analyze"])
        #expect(outcome.exitCode == .usageError)
        #expect(outcome.standardError.contains("missing FILE|MEMO"))
    }

    @Test func topLevelHelpListsIt() {
        #expect(runCommandLine(["--help"]).standardOutput.contains("\n  analyze "))
    }
}
