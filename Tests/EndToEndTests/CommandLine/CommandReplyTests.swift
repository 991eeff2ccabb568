import Foundation
import Testing

/// What the library commands print: words for a person on a terminal, the bare id (or path)
/// for a script reading a pipe; and `purge --all`, which cannot be undone, asks first.
///
/// A terminal is a real pseudo-terminal: util-linux `script` runs the command on one, with
/// the test's standard input fed to it.
@Suite struct CommandReplyTests {
    @Test func onATerminalEachCommandSaysWhatItDidInWords() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Standup \u{1B}[2J")
        let words = [
            (["rename", id, "Stand\u{1B}up"], "Renamed memo \(id) to “Stand␛up”"),
            (["mark", id, "0.25", "--label", "intro"], "Marker “intro” at 0.25 s in “Stand␛up” (id \(id))"),
            (["export", id, sandbox.file("out.wav")], "Exported “Stand␛up” (id \(id)) to \(sandbox.file("out.wav"))"),
            (["delete", id], "Deleted “Stand␛up” (id \(id)); `voicememo restore \(id)` brings it back (it stays in Recently Deleted for 30 days)"),
            (["restore", id], "Restored “Stand␛up” (id \(id))"),
        ]
        for (arguments, expected) in words {
            let outcome = try sandbox.onTerminal(arguments)
            #expect(outcome.status == 0, "\(arguments): \(outcome)")
            #expect(outcome.standardOutput.contains(expected), "\(arguments): \(outcome.standardOutput)")
            #expect(!outcome.standardOutput.contains("\u{1B}["), "no raw escape reaches the terminal: \(arguments)")
        }
        let split = try sandbox.onTerminal(["split", id, "0.1"])
        #expect(split.status == 0, "\(split)")
        #expect(split.standardOutput.contains("Made “Stand␛up (1)” (id "), "\(split.standardOutput)")
        #expect(split.standardOutput.contains(" and “Stand␛up (2)” (id "), "\(split.standardOutput)")
        #expect(split.standardOutput.contains(" from “Stand␛up” (id \(id))"), "\(split.standardOutput)")
        let purged = try sandbox.onTerminal(["purge", id])
        #expect(purged.standardOutput.contains("Purged “Stand␛up” (id \(id)) for good"), "\(purged)")
    }

    @Test func pipedEachCommandPrintsTheBareIdOrPath() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Standup")
        let exported = sandbox.file("out.wav")
        for (arguments, expected) in [
            (["rename", id, "Daily"], id), (["mark", id, "0.1"], id), (["export", id, exported], exported),
            (["delete", id], id), (["restore", id], id), (["delete", id], id), (["purge", id], id),
        ] {
            let outcome = try sandbox.run(arguments: arguments)
            #expect(outcome.status == 0, "\(arguments): \(outcome)")
            #expect(outcome.standardOutput == expected + "\n", "\(arguments): \(outcome)")
        }
    }

    @Test func purgeAllWithoutATerminalNeedsYesAndKeepsEverythingOtherwise() throws {
        let sandbox = try VoiceMemoSandbox()
        let first = try sandbox.recordMemo(title: "One")
        let second = try sandbox.recordMemo(title: "Two")
        #expect(try sandbox.run("delete", first).status == 0)
        #expect(try sandbox.run("delete", second).status == 0)

        let refused = try sandbox.run("purge", "--all", standardInput: "y\n")
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.standardError.contains("purge --all would delete 2 memos in Recently Deleted for good; add --yes"), "\(refused)")
        #expect(try sandbox.listedMemos(deleted: true).count == 2, "nothing was purged")

        let lonely = try sandbox.run("purge", first, "--yes")
        #expect(lonely.status == 2 && lonely.standardError.contains("--yes only works with --all"), "\(lonely)")

        let confirmed = try sandbox.run("purge", "--all", "--yes")
        #expect(confirmed.status == 0, "\(confirmed)")
        #expect(Set(confirmed.standardOutput.split(separator: "\n").map(String.init)) == [first, second])
        #expect(try sandbox.listedMemos(deleted: true).isEmpty)
    }

    @Test func purgeAllOnATerminalAsksAndOnlyYesPurges() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "One")
        #expect(try sandbox.run("delete", id).status == 0)
        for answer in ["n", "", "whatever"] {
            let declined = try sandbox.onTerminal(["purge", "--all"], typing: answer + "\n")
            #expect(declined.status == 1, "\(answer): \(declined)")
            #expect(declined.standardOutput.contains("Delete 1 memo in Recently Deleted for good? This cannot be undone. [y/N]"), "\(declined)")
            #expect(declined.standardOutput.contains("nothing was purged"), "\(declined)")
            #expect(try sandbox.listedMemos(deleted: true).count == 1)
        }
        let accepted = try sandbox.onTerminal(["purge", "--all"], typing: "y\n")
        #expect(accepted.status == 0, "\(accepted)")
        #expect(accepted.standardOutput.contains("Purged 1 memo for good"), "\(accepted)")
        #expect(try sandbox.listedMemos(deleted: true).isEmpty)
        let empty = try sandbox.onTerminal(["purge", "--all"])
        #expect(empty.status == 0 && empty.standardOutput.contains("Recently Deleted is empty: nothing was purged"), "\(empty)")
    }
}

extension VoiceMemoSandbox {
    /// Runs `voicememo arguments` on a pseudo-terminal (util-linux `script`), typing `typing`
    /// into it; everything the terminal showed is the outcome's standard output.
    func onTerminal(_ arguments: [String], typing: String = "") throws -> ProcessOutcome {
        let command = ([try VoiceMemoBinary.url().path] + arguments).map(shellQuoted).joined(separator: " ")
        let outcome = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/script"), arguments: ["-qec", command, "/dev/null"],
            environment: environment, standardInput: typing)
        return ProcessOutcome(
            status: outcome.status, wasSignalled: outcome.wasSignalled, timedOut: outcome.timedOut,
            standardOutput: outcome.standardOutput.replacingOccurrences(of: "\r\n", with: "\n"),
            standardError: outcome.standardError)
    }

    private func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
