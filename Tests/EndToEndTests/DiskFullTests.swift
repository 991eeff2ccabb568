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
        #expect(seconds > 4, "what was written plays: \(seconds) s")
        #expect(Double(sox.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)).map { abs($0 - seconds) < 0.01 } == true, "\(sox)")

        let list = try String(contentsOfFile: sandbox.file("list.json"), encoding: .utf8)
        let listErrors = try String(contentsOfFile: sandbox.file("list.err"), encoding: .utf8)
        // Once there is room again, nothing was lost: the next list recovers the memo.
        #expect(outcome.standardOutput.contains("freed=0"), "\(outcome)")
        let freed = try String(contentsOfFile: sandbox.file("freed.json"), encoding: .utf8)
        #expect(freed.contains("\"Filled the disk\"") && freed.contains("\"recovered\""), "\(freed)")
        // On the full disk the index cannot be written: the memo is listed as the index has
        // it (still "recording"), with a warning that recovery waits for room.
        #expect(outcome.standardOutput.contains("list=0"), "\(outcome) \(listErrors)")
        #expect(list.contains("\"Filled the disk\""), "the memo is listed: \(list) \(listErrors)")
        #expect(listErrors.contains("disk is full"), "\(listErrors)")
    }
}
