import Foundation
import SoundFiles
import Testing

/// The full-screen app while the disk fills during a recording: its library on a 1 MiB tmpfs
/// mounted in a private mount namespace (`unshare -m`) in which the tmux server, and so the
/// app, runs. Needs root; elsewhere the test is skipped visibly.
@Suite(.serialized) struct AppTmuxDiskFullTests {
    /// Words for `AppTmuxSession(launcher:)`: the tmux server, and so the app, run in a private
    /// mount namespace with a 1 MiB tmpfs on `library`.
    static func tinyTmpfsLauncher(library: String) -> String {
        "mkdir -p '\(library)' && unshare -m --propagation private -- "
            + "sh -c 'mount -t tmpfs -o size=1m tmpfs \"$0\" || exit 99; exec \"$@\"' '\(library)'"
    }

    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"))
    func theDiskFillsWhileRecording() throws {
        let sandbox = try VoiceMemoSandbox()
        let library = sandbox.libraryDirectory.path
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source tone:440@-6 --format wav", width: 100,
            launcher: Self.tinyTmpfsLauncher(library: library))
        try app.waitFor("Listening to tone:440@-6")
        try app.press("r")
        #expect(try app.waitFor("● REC").contains("● REC"))
        var screen = try app.waitFor("Recording stopped", timeout: 20)
        print("AppTmuxDiskFullTests: the screen when the disk filled:\n\(screen)")
        #expect(screen.contains("disk is full"), "the status line names the cause: \(screen)")
        #expect(screen.contains("VoiceMemo   input: tone:440@-6"), "the screen is intact: \(screen)")
        #expect(!screen.contains("● REC"), "the recording stopped: \(screen)")
        #expect(!screen.contains("could not be added"), "the memo was finished in the index: \(screen)")
        Thread.sleep(forTimeInterval: 1)
        screen = try app.screen()
        #expect(screen.contains("disk is full"), "the message stays: \(screen)")
        let row = screen.split(separator: "\n").first { $0.contains("Memo 20") }
        #expect(row != nil, "the memo is listed: \(screen)")

        // While the disk is still full: the file plays and the index has the memo, complete.
        let namespace = "nsenter -t \(try app.panePID()) -m --"
        let inside = try sandbox.shell("""
            \(namespace) sh -c 'cp "$0"/*.wav "$1" && df -k "$0" | tail -1 && VOICEMEMO_HOME="$0" voicememo list --json > "$2"' \
              '\(library)' '\(sandbox.file("full.wav"))' '\(sandbox.file("list.json"))'
            """)
        #expect(inside.status == 0, "\(inside)")
        print("AppTmuxDiskFullTests: df inside the namespace: \(inside.standardOutput)")
        let reader = try SoundFileReader(path: sandbox.file("full.wav"))
        let seconds = reader.info.duration
        reader.close()
        #expect(seconds > 2, "what was written plays: \(seconds) s")
        let sox = try sandbox.shell("sox --i -D full.wav")
        #expect(Double(sox.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)).map { abs($0 - seconds) < 0.01 } == true, "\(sox)")
        let listData = try Data(contentsOf: URL(fileURLWithPath: sandbox.file("list.json")))
        let memos = try JSONSerialization.jsonObject(with: listData) as? [[String: Any]]
        let memo = memos?.first
        #expect(memos?.count == 1, "\(String(decoding: listData, as: UTF8.self))")
        #expect(memo?["state"] as? String == "complete", "\(String(decoding: listData, as: UTF8.self))")
        let listed = memo?["duration"] as? Double
        #expect(listed.map { abs($0 - seconds) < 0.01 } == true, "listed \(String(describing: listed)) s, the file has \(seconds) s")
        print("AppTmuxDiskFullTests: 1 MiB tmpfs: \(seconds) s kept, listed as \(memo?["state"] ?? "?") \(listed ?? -1) s")

        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
        #expect(screen.contains("MODES: icanon echo END"), "the terminal is back in cooked mode with echo: \(screen)")
    }
}
