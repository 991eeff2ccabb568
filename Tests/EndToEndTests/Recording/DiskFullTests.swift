import Foundation
import SoundFiles
import Testing

/// A library on a genuinely full disk: a 1 MiB tmpfs in a private mount namespace
/// (`unshare -m`, as `LibraryReadOnlyMountTests` does). Needs root; elsewhere the test is
/// skipped visibly, and `ulimit -f` (RecordCommandTests) still covers a write that fails.
@Suite struct DiskFullLibraryTests {
    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"))
    func recordOnAFullDiskStopsNamingTheCauseAndTheFilePlays() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.shell("""
            mkdir -p mnt
            exec unshare -m --propagation private bash -c '
              mount -t tmpfs -o size=1m tmpfs mnt || exit 99
              export VOICEMEMO_HOME="$PWD/mnt/library"
              voicememo record --source tone:440@-6 --format wav --duration 30 --title "Filled the disk" > id.txt 2> record.err
              echo "record=$?"
              cp mnt/library/*.wav full.wav
              voicememo list --json > list.json 2> list.err; echo "list=$?"
              mount -o remount,size=2m mnt
              voicememo list --json > freed.json 2> freed.err; echo "freed=$?"
              umount mnt
            '
            """)
        #expect(outcome.standardOutput.contains("record=1"), "\(outcome)")
        let message = try String(contentsOfFile: sandbox.file("record.err"), encoding: .utf8)
        #expect(message.contains("No space left on device"), "the message names the cause: \(message)")
        let reader = try SoundFileReader(path: sandbox.file("full.wav"))
        let seconds = reader.info.duration
        reader.close()
        let sox = try sandbox.shell("sox --i -D full.wav")
        print("DiskFullLibraryTests: 1 MiB tmpfs: \(seconds) s kept (sox reads \(sox.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) s); record said: \(message.debugDescription)")
        // The recording stops with 256 kB still free (the reserve kept for the index).
        #expect(seconds > 2, "what was written plays: \(seconds) s")
        #expect(Double(sox.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)).map { abs($0 - seconds) < 0.01 } == true, "\(sox)")

        // While the disk is still full, the memo is finished in the index: complete, with
        // the file's length, and start-up maintenance has the room it needs.
        let list = try String(contentsOfFile: sandbox.file("list.json"), encoding: .utf8)
        let listErrors = try String(contentsOfFile: sandbox.file("list.err"), encoding: .utf8)
        #expect(outcome.standardOutput.contains("list=0"), "\(outcome) \(listErrors)")
        let memos = try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]]
        #expect(memos?.count == 1 && memos?.first?["title"] as? String == "Filled the disk", "\(list)")
        #expect(memos?.first?["state"] as? String == "complete", "\(list)")
        let listed = memos?.first?["duration"] as? Double
        #expect(listed.map { abs($0 - seconds) < 0.01 } == true, "listed \(String(describing: listed)) s, the file has \(seconds) s")
        #expect(!listErrors.contains("disk is full"), "\(listErrors)")
        #expect(!message.contains("memo index failed"), "the index was written: \(message)")
        // Once there is room again nothing changes.
        #expect(outcome.standardOutput.contains("freed=0"), "\(outcome)")
        let freed = try String(contentsOfFile: sandbox.file("freed.json"), encoding: .utf8)
        #expect(freed.contains("\"Filled the disk\"") && freed.contains("\"complete\""), "\(freed)")
    }
}
