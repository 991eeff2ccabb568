import Foundation
import Testing

/// Running out of file descriptors is a clear error, never a damaged memo or a trap; a memo
/// marked damaged is looked at again; nothing that can block (a FIFO, through a link or not)
/// is ever opened in a way a signal cannot end.
@Suite struct ResourceLimitTests {
    @Test(arguments: ["8", "12"])
    func aFileDescriptorLimitTooLowIsSaidBeforeAnythingIsRecorded(limit: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.shell("""
            ulimit -n \(limit)
            VOICEMEMO_UNPACED=1 voicememo record --source tone:440@-12 --duration 1 --format flac
            """)
        #expect(outcome.status == 1 && !outcome.wasSignalled, "\(outcome)")
        #expect(outcome.standardError.contains("too many open files") && outcome.standardError.contains("ulimit -n"), "\(outcome)")
        #expect(outcome.standardOutput.isEmpty, "no memo id: \(outcome)")
        #expect(try sandbox.listedMemos().isEmpty)
    }

    @Test func aLowSoftLimitIsRaisedAndTheRecordingIsWhole() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.shell("""
            ulimit -Hn 4096; ulimit -Sn 12
            VOICEMEMO_UNPACED=1 voicememo record --source tone:440@-12 --duration 1 --format flac
            """)
        #expect(outcome.status == 0, "\(outcome)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(memo["state"] as? String == "complete", "\(memo)")
        #expect((memo["duration"] as? Double ?? 0) > 0.9, "\(memo)")
    }

    @Test func aMemoMarkedDamagedIsCheckedAgainAtTheNextOpening() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "fine", format: "flac", seconds: "1")
        // As a failure that was not about the file's contents left it (no descriptor left).
        let marked = try sandbox.shell("""
            sqlite3 "$VOICEMEMO_HOME/index.sqlite3" "UPDATE memos SET state = 'damaged' WHERE id = \(id)"
            """)
        try #require(marked.status == 0, "\(marked)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(memo["state"] as? String == "complete", "\(memo)")
        let exported = try sandbox.run("export", id, sandbox.file("copy.wav"))
        #expect(exported.status == 0, "\(exported)")
    }

    @Test func aLinkToAFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let sandbox = try VoiceMemoSandbox()
        let fifo = sandbox.file("pipe.wav")
        try #require(mkfifo(fifo, 0o600) == 0)
        let link = sandbox.file("link.wav")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fifo)
        let commands: [[String]] = [
            ["play", link, "--device", "null"], ["analyze", link], ["record", "--source", "file:" + link],
            ["meter", "--source", "file:" + link, "--duration", "1"],
        ]
        for arguments in commands {
            let outcome = try sandbox.run(arguments: arguments, timeout: .seconds(20))
            #expect(!outcome.timedOut, "\(arguments) waited: \(outcome)")
            #expect(outcome.status == 1, "\(arguments): \(outcome)")
            #expect(outcome.standardError.contains("FIFO"), "\(arguments): \(outcome.standardError)")
        }
    }
}
