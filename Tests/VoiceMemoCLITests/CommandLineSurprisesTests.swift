import Testing
@testable import VoiceMemoCLI

/// What a person meets in a first hour with the command line: several words for `search`,
/// the format they meant behind a name of another tool's, the way to the manual without
/// installing.
@Suite struct CommandLineSurprisesTests {
    /// Parses `search` with `arguments` and returns what its run would receive.
    private func searchOptions(_ arguments: [String]) -> (CommandLineOutcome, SearchOptions?) {
        parseCommandLine(SearchCommand.self, arguments)
    }

    @Test func searchTakesSeveralWordsAsOneQuery() {
        let (outcome, options) = searchOptions(["budget", "meeting"])
        #expect(outcome.exitCode == .success, "\(outcome.standardError)")
        #expect(options == SearchOptions(words: "budget meeting"))
        let (quoted, same) = searchOptions(["budget meeting", "--json"])
        #expect(quoted.exitCode == .success, "\(quoted.standardError)")
        #expect(same == SearchOptions(words: "budget meeting", json: true))
    }

    @Test func searchWithoutWordsIsAUsageError() {
        let (outcome, options) = searchOptions([])
        #expect(outcome.exitCode == .usageError)
        #expect(outcome.standardError.contains("WORDS"), "\(outcome.standardError)")
        #expect(options == nil)
    }

    /// Another tool's name for a format suggests the format it is, not the nearest spelling.
    @Test(arguments: [
        ("mp4", "m4a"), ("aac", "m4a"), ("aif", "aiff"), ("oga", "ogg"), ("MP3", "mp3"), ("wave", "wav"),
    ])
    func aFormatsOtherNameSuggestsIt(given: String, meant: String) {
        for command in [["export", "1", "out"], ["record"]] {
            let outcome = runCommandLine(command + ["--format", given])
            #expect(outcome.exitCode == .usageError)
            #expect(outcome.standardError.contains("did you mean '\(meant)'?"), "\(command): \(outcome.standardError)")
        }
    }

    @Test(arguments: [["--help"], ["help"]])
    func topLevelHelpSaysHowToReadTheManualWithoutInstalling(arguments: [String]) {
        let outcome = runCommandLine(arguments)
        #expect(outcome.exitCode == .success)
        #expect(outcome.standardOutput.contains("--generate-man-page"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("voicememo --generate-man-page | man -l -"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("--generate-completion"), "\(outcome.standardOutput)")
    }
}
