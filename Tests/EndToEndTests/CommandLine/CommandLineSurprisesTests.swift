import Foundation
import SoundFiles
import Testing

/// The command line as a person meets it in a first hour: what `record` says on a terminal,
/// `export` into a pipe, `search` with several words and titles, names the app uses.
@Suite struct CommandLineSurprisesTests {
    /// `record` stopped with Ctrl-C on a terminal says what it saved on standard error; the id
    /// alone goes to standard output.
    @Test func recordStoppedOnATerminalSaysWhatWasSaved() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.shell("""
            printf '%s\\n' 'echo $$ > pid' 'exec voicememo record --source tone:440@-12 --format wav --title Standup > id.txt' > rec.sh
            script -qec 'bash rec.sh' /dev/null < /dev/null > terminal.txt &
            started() { [ -s id.txt ] && [ -s pid ]; }
            wait_until 30 "the memo's id" started || exit 124
            sleep 1.3
            kill -INT "$(cat pid)"
            wait
            cat id.txt
            """)
        #expect(outcome.status == 0, "\(outcome)")
        let terminal = try String(contentsOfFile: sandbox.file("terminal.txt"), encoding: .utf8)
        #expect(outcome.standardOutput == "1\n", "only the id on standard output: \(outcome)")
        #expect(terminal.contains("Saved “Standup” (00:00:01)") || terminal.contains("Saved “Standup” (00:00:02)"), "\(terminal.debugDescription)")
        #expect(terminal.contains("id 1"), "\(terminal.debugDescription)")

        // Not on a terminal: standard error stays quiet about it, as before.
        var environment = sandbox.environment
        environment["VOICEMEMO_UNPACED"] = "1"
        let piped = try ProcessRunner.run(
            try VoiceMemoBinary.url(), arguments: ["record", "--source", "tone:440@-12", "--duration", "0.5"],
            environment: environment, timeout: .seconds(30))
        #expect(piped.status == 0, "\(piped)")
        #expect(piped.standardOutput == "2\n")
        #expect(!piped.standardError.contains("Saved"), "\(piped)")
    }

    /// `record --vox` on a terminal: each id on a line of its own (the live line cleared
    /// first), and at the end how many memos, with their ids.
    @Test func voxOnATerminalPrintsEachIDOnItsOwnLineAndSumsUp() throws {
        let sandbox = try VoiceMemoSandbox()
        let made = try sandbox.shell("""
            set -e
            sox -n -r 48000 -b 16 -c 2 gap.wav trim 0 2.5
            sox -n -r 48000 -b 16 -c 2 burst.wav synth 1 sine 440 vol 0.25
            sox gap.wav burst.wav gap.wav burst.wav gap.wav mix.wav
            """)
        try #require(made.status == 0, "\(made)")
        let outcome = try sandbox.shell("""
            script -qec 'voicememo record --vox --vox-level-only --source file:mix.wav --format wav --vox-silence 1s' /dev/null < /dev/null > terminal.txt
            echo "status $?"
            """)
        #expect(outcome.standardOutput.contains("status 0"), "\(outcome)")
        let terminal = try String(contentsOfFile: sandbox.file("terminal.txt"), encoding: .utf8)
        let ids = try sandbox.listedMemos().compactMap { ($0["id"] as? Int).map(String.init) }.sorted()
        try #require(ids.count == 2, "\(ids) \(terminal.debugDescription)")
        for id in ids {
            #expect(terminal.contains("\r\u{1B}[K\(id)\r\n"), "memo \(id) on a cleared line: \(terminal.debugDescription)")
        }
        #expect(terminal.contains("Saved 2 memos (ids \(ids[0]), \(ids[1]))"), "\(terminal.debugDescription)")
    }

    /// `export MEMO -` writes the copy to standard output, in any format, and nothing else.
    @Test(arguments: ["wav", "flac", "ogg", "opus", "mp3", "caf", "aiff", "m4a"])
    func exportToStandardOutputFeedsAPipe(format: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Standup", format: "flac", seconds: "0.5")
        let outcome = try sandbox.shell("""
            voicememo export \(id) - --format \(format) 2> err.txt | cat > piped.\(format)
            echo "status ${PIPESTATUS[0]}"
            cat err.txt >&2
            ls
            """)
        #expect(outcome.standardOutput.contains("status 0"), "\(outcome)")
        #expect(!outcome.standardOutput.contains("-.\(format)"), "no file named -: \(outcome)")
        let reader = try SoundFileReader(path: sandbox.file("piped.\(format)"))
        defer { reader.close() }
        #expect(reader.info.frames >= 23_000 && reader.info.frames <= 25_000, "\(reader.info)")
    }

    @Test func exportToStandardOutputIsInTheMemosFormatWithoutFormat() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(format: "flac", seconds: "0.5")
        let outcome = try sandbox.shell("voicememo export \(id) - | head -c 4")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput == "fLaC", "\(outcome)")
    }

    /// A terminal is no place for a sound file's bytes: refused, nothing written anywhere.
    @Test func exportToStandardOutputOnATerminalIsRefused() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(format: "wav")
        let outcome = try sandbox.shell("""
            script -qec 'voicememo export \(id) - --format wav; echo "status $?"' /dev/null < /dev/null
            ls
            """)
        #expect(outcome.standardOutput.contains("status 1"), "\(outcome)")
        #expect(outcome.standardOutput.contains("standard output is a terminal"), "\(outcome)")
        #expect(!outcome.standardOutput.contains("-.wav"), "\(outcome)")
        #expect(!outcome.standardOutput.contains("RIFF"), "\(outcome)")
    }

    /// A name ending in another tool's extension for a format is refused naming ours; an
    /// extension that is no sound format's gets the format's, and `export` says so.
    @Test func exportSaysWhatItDoesWithAnExtensionItDoesNotWrite() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(format: "flac")
        let mp4 = try sandbox.run("export", id, sandbox.file("out.mp4"))
        #expect(mp4.status == 1, "\(mp4)")
        #expect(mp4.standardError.contains(".m4a"), "\(mp4)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.file("out.mp4")))
        #expect(!FileManager.default.fileExists(atPath: sandbox.file("out.mp4.flac")))

        let xyz = try sandbox.run("export", id, sandbox.file("out.xyz"))
        #expect(xyz.status == 0, "\(xyz)")
        #expect(xyz.standardOutput == sandbox.file("out.xyz.flac") + "\n", "\(xyz)")
        #expect(xyz.standardError.contains("“.xyz” is not a sound file extension"), "\(xyz)")
        #expect(xyz.standardError.contains("out.xyz.flac"), "\(xyz)")
    }

    /// `play MEMO --from` past its end names the memo, not its file.
    @Test func playFromPastTheEndNamesTheMemo() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Standup", format: "wav", seconds: "0.5")
        let outcome = try sandbox.run("play", id, "--from", "20", "--device", "null")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("memo \(id) “Standup”"), "\(outcome)")
        #expect(!outcome.standardError.contains(sandbox.libraryDirectory.path), "\(outcome)")
    }

    /// `meter` names the channels and the reading as the app's meter does.
    @Test func meterUsesTheAppsWords() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let stereo = try sandbox.run("meter", "--source", "tone:1000@-12", "--duration", "0.3")
        #expect(stereo.status == 0, "\(stereo)")
        #expect(stereo.standardOutput.contains("L rms "), "\(stereo)")
        #expect(stereo.standardOutput.contains("R rms "), "\(stereo)")
        #expect(stereo.standardOutput.contains(" pk "), "\(stereo)")
        #expect(!stereo.standardOutput.contains("avg"), "\(stereo)")
        let made = try sandbox.shell("sox -n -r 48000 -b 16 -c 1 mono.wav synth 0.5 sine 1000 vol 0.25")
        try #require(made.status == 0, "\(made)")
        let mono = try sandbox.run("meter", "--source", "file:" + sandbox.file("mono.wav"))
        #expect(mono.standardOutput.contains("M rms "), "\(mono)")
    }

    /// `search` takes several words, and finds titles as the app's `/` does.
    @Test func searchFindsTitlesAndTakesSeveralWords() throws {
        let sandbox = try VoiceMemoSandbox()
        let budget = try sandbox.recordMemo(title: "Budget meeting with Dana")
        _ = try sandbox.recordMemo(title: "Shopping list")
        let words = try sandbox.run("search", "budget", "meeting")
        #expect(words.status == 0, "\(words)")
        #expect(words.standardOutput.hasPrefix(budget + "  "), "\(words)")
        #expect(!words.standardOutput.contains("Shopping"), "\(words)")
        let json = try sandbox.run("search", "MEETING", "--json")
        #expect(json.status == 0, "\(json)")
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(hits.count == 1)
        #expect((hits.first?["id"] as? Int).map(String.init) == budget)
        #expect(hits.first?["matched"] as? String == "title", "\(hits)")
        let none = try sandbox.run("search", "dentist")
        #expect(none.status == 1, "\(none)")
    }

    /// An edit gives what it makes new ids: every edit says which memo became which, piped
    /// too, and `--json` gives each new memo the id it replaces.
    @Test func editsSayWhichMemoBecameWhich() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Standup", format: "wav", seconds: "1")
        let trim = try sandbox.run("trim", id, "--from", "0.2")
        #expect(trim.status == 0, "\(trim)")
        let trimmed = trim.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Int(trimmed) != nil && trimmed != id, "only the new id on standard output: \(trim)")
        #expect(trim.standardError.contains("memo \(id) is now memo \(trimmed)"), "\(trim)")

        let split = try sandbox.run("split", trimmed, "0.4", "--json")
        #expect(split.status == 0, "\(split)")
        let memos = try #require(try JSONSerialization.jsonObject(with: Data(split.standardOutput.utf8)) as? [[String: Any]])
        #expect(memos.count == 2)
        let halves = memos.compactMap { $0["id"] as? Int }.map(String.init)
        for memo in memos {
            #expect((memo["replaces"] as? Int).map(String.init) == trimmed, "\(memo)")
        }
        #expect(split.standardError.contains("memo \(trimmed) is now memos \(halves.joined(separator: " and "))"), "\(split)")
    }
}
