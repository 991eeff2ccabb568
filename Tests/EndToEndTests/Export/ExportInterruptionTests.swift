import Foundation
import Testing

/// An export stopped by a signal removes its hidden files at the destination; one killed
/// outright (kill -9) leaves them, and the next export to that folder removes them, saying so.
@Suite struct ExportInterruptionTests {
    /// Starts `export 1 out/NAME`, waits for its hidden files at the destination, sends
    /// `signal`, and lists the folder afterwards (one name a line) after the exit status.
    private func interruptedExport(_ sandbox: VoiceMemoSandbox, name: String, signal: String) throws -> ProcessOutcome {
        try sandbox.shell("""
            mkdir -p out
            voicememo export 1 out/\(name) 2> err.txt &
            pid=$!
            started() { ls -A out | grep -q export- || { kill -0 $pid 2>/dev/null || { cat err.txt >&2; exit 3; }; false; }; }
            wait_until 30 "the export's hidden files" started || exit 124
            kill -\(signal) $pid
            wait $pid
            echo "status $?"
            ls -A out
            """, timeout: .seconds(90))
    }

    @Test(arguments: [("INT", 130), ("TERM", 143), ("HUP", 129)])
    func aSignalRemovesTheExportsHiddenFiles(signal: String, status: Int) throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "long", seconds: "300", timeout: .seconds(60))
        let outcome = try interruptedExport(sandbox, name: "copy.m4a", signal: signal)
        #expect(outcome.status == 0, "\(outcome)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "status \(status)", "ended by the signal: \(outcome)")
        #expect(lines.dropFirst().isEmpty, "nothing left at the destination: \(outcome)")
    }

    @Test func whatAKilledExportLeftIsRemovedByTheNextExportThere() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "long", seconds: "300", timeout: .seconds(60))
        let killed = try interruptedExport(sandbox, name: "copy.m4a", signal: "KILL")
        let left = killed.standardOutput.split(separator: "\n").dropFirst()
        #expect(!left.isEmpty && left.allSatisfy { $0.hasPrefix("..copy.m4a.export-") }, "\(killed)")

        let next = try sandbox.run("export", "1", sandbox.file("out/other.flac"), timeout: .seconds(60))
        #expect(next.status == 0, "\(next)")
        #expect(next.standardError.contains("removed \(left.count) hidden files"), "\(next.standardError)")
        #expect(next.standardError.contains("that an interrupted export left in"), "\(next.standardError)")
        let remaining = try FileManager.default.contentsOfDirectory(atPath: sandbox.file("out"))
        #expect(remaining == ["other.flac"], "\(remaining)")
    }
}

/// `record --output FILE` killed with kill -9 while it records MP3 keeps its audio beside FILE;
/// `recover FILE` finishes it, a running recording is left alone, and nothing records over it.
@Suite struct RecordOutputRecoveryTests {
    @Test func aKilledRecordingIntoAFileIsRecoveredNotLost() throws {
        let sandbox = try VoiceMemoSandbox()
        let killed = try sandbox.shell("""
            mkdir -p out
            voicememo record --source tone:440@-6 --format mp3 --output out/take.mp3 2> err.txt &
            pid=$!
            kept() { [ -e out/.take.mp3.partial.w64 ] && [ "$(stat -c %s out/.take.mp3.partial.w64)" -gt 200000 ] || { kill -0 $pid 2>/dev/null || { cat err.txt >&2; exit 3; }; false; }; }
            wait_until 30 "the recording's intermediate" kept || exit 124
            voicememo recover out/take.mp3; echo "while recording: $?"
            kill -9 $pid
            wait $pid 2>/dev/null
            ls -A out
            """)
        #expect(killed.status == 0, "\(killed)")
        #expect(killed.standardOutput.contains("while recording: 1"), "\(killed)")
        #expect(killed.standardError.contains("is still being recorded"), "\(killed)")
        #expect(killed.standardOutput.contains(".take.mp3.partial.w64"), "the audio is kept: \(killed)")

        var environment = sandbox.environment
        environment["VOICEMEMO_UNPACED"] = "1"
        let over = try ProcessRunner.run(
            try VoiceMemoBinary.url(),
            arguments: ["record", "--source", "tone:880@-6", "--duration", "1", "--output", sandbox.file("out/take.mp3"), "--force"],
            environment: environment, timeout: .seconds(30))
        #expect(over.status == 1, "\(over)")
        #expect(over.standardError.contains("`voicememo recover \(sandbox.file("out/take.mp3"))` finishes it"), "\(over)")

        let recovered = try sandbox.run("recover", sandbox.file("out/take.mp3"))
        #expect(recovered.status == 0, "\(recovered)")
        #expect(recovered.standardError.contains("recovered \(sandbox.file("out/take.mp3"))"), "\(recovered)")
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.file("out"))
        #expect(names == ["take.mp3"], "the intermediate and recipe are gone: \(names)")
        let analyzed = try sandbox.run("analyze", sandbox.file("out/take.mp3"), "--json")
        let json = try JSONSerialization.jsonObject(with: Data(analyzed.standardOutput.utf8)) as? [String: Any]
        #expect((json?["duration"] as? Double ?? 0) > 0.1, "\(analyzed)")
        let again = try sandbox.run("recover", sandbox.file("out/take.mp3"))
        #expect(again.status == 0 && again.standardError.contains("nothing to recover"), "\(again)")
    }
}
