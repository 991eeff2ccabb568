import Testing

@testable import VoiceMemoCLI

/// The command line as a user or a script sees it: the real binary, its streams, its status.
@Suite("voicememo command line")
struct CommandLineSurfaceTests {
    /// Every subcommand the command line has, as its runner lists them: a new one is checked
    /// here without being typed in twice.
    static var subcommands: [String] { CommandLineRunner.subcommands.map(\.name) }

    @Test func versionShowsTheLibraries() throws {
        let outcome = try VoiceMemoSandbox().run("--version")
        #expect(outcome.status == 0, "\(outcome)")
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.first == "voicememo 0.1.0")
        #expect(lines.count == 2)
        for library in ["alsa-lib", "libsndfile", "ncurses", "SQLite"] {
            #expect(outcome.standardOutput.contains(library), "\(library) missing")
        }
        #expect(outcome.standardError == "")
    }

    @Test func helpListsEverySubcommand() throws {
        let outcome = try VoiceMemoSandbox().run("--help")
        #expect(outcome.status == 0, "\(outcome)")
        for name in Self.subcommands {
            #expect(outcome.standardOutput.contains("  \(name) "), "\(name) missing")
        }
    }

    @Test func recordHelpShowsItsOptions() throws {
        let outcome = try VoiceMemoSandbox().run("record", "--help")
        #expect(outcome.status == 0, "\(outcome)")
        for option in [
            "--duration T", "--delay T", "--title TEXT", "--format F", "--encoding E", "--rate HZ",
            "--channels N", "--quality Q", "--source S", "--output PATH", "--vox", "--vox-threshold DB",
            "--vox-silence T", "--vox-min T", "--vox-preroll T", "--json",
        ] {
            #expect(outcome.standardOutput.contains(option), "\(option) missing")
        }
        #expect(!outcome.standardOutput.contains("\u{1B}"))
    }

    @Test func badRateIsAUsageError() throws {
        let outcome = try VoiceMemoSandbox().run("record", "--rate", "abc")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardOutput == "")
        #expect(outcome.standardError.hasPrefix("voicememo: --rate: \"abc\" is not a sample rate"))
        #expect(outcome.standardError.hasSuffix("\nRun 'voicememo record --help' for usage.\n"))
    }

    @Test func unknownSubcommandSuggestsWhatToDo() throws {
        let sandbox = try VoiceMemoSandbox()
        let unknown = try sandbox.run("frobnicate")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.standardError == "voicememo: unknown subcommand 'frobnicate'\nRun 'voicememo --help' for usage.\n")
        let typo = try sandbox.run("recrod")
        #expect(typo.status == 2, "\(typo)")
        #expect(typo.standardError.contains("did you mean 'record'?"))
    }

    @Test func standardInputAndTimeoutWork() throws {
        let outcome = try VoiceMemoSandbox().run("--version", standardInput: "ignored\n", timeout: .seconds(10))
        #expect(!outcome.timedOut)
        #expect(outcome.status == 0)
    }
}
