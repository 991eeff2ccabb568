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
