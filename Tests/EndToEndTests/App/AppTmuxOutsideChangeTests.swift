import Foundation
import SoundFiles
import Testing

/// The app open while other processes change its library — a
/// rename, a damaged index moved aside and rebuilt by `voicememo list`, the folder deleted
/// during a recording — and `r` on a full disk.
@Suite(.serialized) struct AppTmuxOutsideChangeTests {
    /// Before: the table kept "Third", and `u` after an app rename put back the title the app
    /// had replaced, over the one given outside since.
    @Test func anOutsideRenameShowsAndUndoKeepsIt() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Third")
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12", width: 120)
        var screen = try app.waitFor("▶ Third")
        #expect(screen.contains("▶ Third"), "\(screen)")

        try Self.renameOutside(id, to: "Third renamed outside", seenBy: app)

        try app.press("e")
        screen = try app.waitFor("Title: Third renamed outside")
        try app.press("End")
        try app.type("X")
        try app.press("Enter")
        screen = try app.waitFor("Renamed to")
        #expect(screen.contains("▶ Third renamed outsideX"), "\(screen)")
        try Self.renameOutside(id, to: "Final outside", seenBy: app)

        try app.press("u")
        screen = try app.waitFor("not undone")
        #expect(screen.contains("“Third renamed outsideX” was renamed elsewhere since (now “Final outside”); not undone."), "\(screen)")
        #expect(screen.contains("▶ Final outside"), "\(screen)")
        let listed = try sandbox.listedMemos()
        #expect(listed.map { $0["title"] as? String } == ["Final outside"], "the outside title is kept: \(listed)")

        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// `voicememo rename ID TITLE` from another process, then the app's table shows it.
    private static func renameOutside(_ id: String, to title: String, seenBy app: AppTmuxSession) throws {
        let outside = try app.sandbox.run("rename", id, title)
        #expect(outside.status == 0, "\(outside)")
        let screen = try app.waitFor("▶ \(title)")
        #expect(screen.contains("▶ \(title)"), "the table shows the outside rename: \(screen)")
    }

    /// Before: after `voicememo list` moved a damaged index aside and rebuilt it, the app went
    /// on writing into the `.corrupt-…` file, and its renames were lost.
    @Test func aReplacedIndexIsReopenedAndLaterChangesLand() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "Alpha")
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12", width: 120)
        var screen = try app.waitFor("▶ Alpha")
        let library = sandbox.libraryDirectory.path
        // Damage the index's header in place (the app's connection has this very file open).
        let damage = try sandbox.shell("printf 'this is not an SQLite index at all' | dd of='\(library)/index.sqlite3' bs=1 seek=0 conv=notrunc 2>/dev/null")
        #expect(damage.status == 0, "\(damage)")
        let list = try sandbox.run("list")
        #expect(list.status == 0, "\(list)")
        let setAside = try FileManager.default.contentsOfDirectory(atPath: library).filter { $0.hasPrefix("index.sqlite3.corrupt-") }
        #expect(!setAside.isEmpty, "list kept the damaged index aside: \(list)")
        screen = try app.waitFor("was replaced by another process")
        #expect(screen.contains("the app now uses the new one"), "\(screen)")
        #expect(screen.contains("▶ Alpha"), "the rebuilt index's memo: \(screen)")

        try app.press("e")
        screen = try app.waitFor("Title: Alpha")
        try app.press("End")
        try app.type(" after")
        try app.press("Enter")
        screen = try app.waitFor("Renamed to")
        let listed = try sandbox.listedMemos()
        #expect(listed.map { $0["title"] as? String } == ["Alpha after"], "the app's rename is in the index others read: \(listed)")

        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// Before: `rm -rf $VOICEMEMO_HOME` during a recording ended in `Saved "Memo …" (00:00:00)`
    /// for a file that no longer existed. Now the folder is made again and the recording,
    /// copied back from the file the app still had open, is saved in it.
    @Test(arguments: ["flac", "wav", "mp3"])
    func theLibraryFolderDeletedDuringARecordingKeepsTheRecording(format: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12 --format \(format)", width: 200)
        var screen = try app.waitFor("Listening to tone:440@-12")
        try app.press("r")
        screen = try app.waitFor("● REC")
        screen = try app.waitForRecording(atLeast: 2, timeout: 20)
        #expect(screen.contains("● REC"), "\(screen)")
        let library = sandbox.libraryDirectory.path
        let removed = try sandbox.shell("rm -rf '\(library)'")
        #expect(removed.status == 0, "\(removed)")
        screen = try app.waitFor("was deleted by another process")
        #expect(screen.contains("The recording in progress is saved there when it stops."), "\(screen)")
        try app.press("s")
        screen = try app.waitFor("What was recorded is saved as", timeout: 30)
        #expect(screen.contains("Recording stopped: the library folder \(library) was deleted while recording (it is made again). What was recorded is saved as “Memo 20"), "\(screen)")
        #expect(!screen.contains("(00:00:00)"), "\(screen)")
        let listed = try sandbox.listedMemos()
        #expect(listed.count == 1, "\(listed)")
        #expect(listed.first?["state"] as? String == "complete", "\(listed)")
        let duration = listed.first?["duration"] as? Double ?? 0
        #expect(duration >= 2, "what was recorded is kept: \(duration) s")
        let path = listed.first?["path"] as? String ?? ""
        #expect(path.hasPrefix(library + "/") && FileManager.default.fileExists(atPath: path), "\(path)")
        let reader = try SoundFileReader(path: path)
        let seconds = reader.info.duration
        reader.close()
        #expect(abs(seconds - duration) < 0.1, "the file plays for as long as listed: \(seconds) s vs \(duration) s")
        print("AppTmuxOutsideChangeTests: \(format): \(duration) s kept after rm -rf of the library")

        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// Only the memo's file deleted during its recording: nothing is reported saved, and no
    /// memo without a file is left in the index.
    @Test func theRecordingsFileDeletedDuringItIsNotReportedSaved() throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12 --format wav", width: 200)
        var screen = try app.waitFor("No memos yet")
        try app.press("r")
        screen = try app.waitForRecording(atLeast: 1, timeout: 20)
        #expect(screen.contains("● REC"), "\(screen)")
        let library = sandbox.libraryDirectory.path
        let removed = try sandbox.shell("rm -v '\(library)'/*.wav")
        #expect(removed.status == 0, "\(removed)")
        try app.press("s")
        screen = try app.waitFor("nothing was saved", timeout: 30)
        #expect(screen.contains("is gone (deleted by another process): nothing was saved."), "\(screen)")
        #expect(!screen.contains("Saved"), "\(screen)")
        #expect(!screen.contains("Title:"), "no title prompt: \(screen)")
        #expect(try sandbox.listedMemos().isEmpty, "no memo without its file")

        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// Before: `r` on a full disk left a 186 B memo with 0 frames. Now it says the disk is
    /// full and leaves nothing. The library is on a 1 MiB tmpfs in a private mount namespace,
    /// filled once the app has opened it (needs root; elsewhere skipped visibly).
    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"), arguments: [0, 8, 16, 64])
    func recordingOnAFullDiskLeavesNothing(spare: Int) throws {
        let sandbox = try VoiceMemoSandbox()
        let library = sandbox.libraryDirectory.path
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source tone:440@-6 --format wav", width: 120,
            launcher: AppTmuxDiskFullTests.tinyTmpfsLauncher(library: library))
        var screen = try app.waitFor("No memos yet")
        let namespace = "nsenter -t \(try app.panePID()) -m --"
        // Full but for SPARE KiB: room for the index's row and the file's header, not for audio.
        let fill = try sandbox.shell(
            "\(namespace) sh -c 'dd if=/dev/zero of=\"$0\"/spare bs=1k count=\(spare) 2>/dev/null; dd if=/dev/zero of=\"$0\"/filler bs=4k 2>/dev/null; rm \"$0\"/spare; df -k \"$0\" | tail -1' '\(library)'")
        #expect(fill.status == 0, "\(fill)")
        print("AppTmuxOutsideChangeTests: \(spare) KiB spare: \(fill.standardOutput)")
        try app.press("r")
        screen = try app.waitUntil(timeout: 20) { $0.contains("disk is full") && !$0.contains("● REC") }
        print("AppTmuxOutsideChangeTests: the screen after r on a full disk:\n\(screen)")
        #expect(screen.contains("disk is full"), "the status line names the cause: \(screen)")
        #expect(!screen.contains("Saved"), "\(screen)")
        let flat = AppTmuxSession.flattened(screen)
        #expect(
            flat.contains("Cannot start recording: the disk is full") || flat.contains("nothing was recorded, so no memo was kept."),
            "says that nothing was kept: \(screen)")
        #expect(!screen.contains("Memo 20"), "no memo in the table: \(screen)")
        let inside = try sandbox.shell("""
            \(namespace) sh -c 'ls -A "$0"; VOICEMEMO_HOME="$0" voicememo list --json' '\(library)'
            """)
        #expect(inside.status == 0, "\(inside)")
        let names = inside.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("index.sqlite3") && !$0.hasPrefix(".") && !$0.hasPrefix("[") && $0 != "]" }
        #expect(names == ["filler"], "no audio file left: \(inside)")
        #expect(inside.standardOutput.contains("[]"), "no memo listed: \(inside)")

        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }
}
