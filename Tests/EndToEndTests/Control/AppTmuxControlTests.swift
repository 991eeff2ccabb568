import Foundation
import Testing
import TestSupport

/// The app in tmux, driven from outside through its control socket: `toggle`, `pause`, `mark`
/// and `status --json` do what `r`, `s` and `b` do, and the screen shows it.
@Suite struct AppTmuxControlTests {
    @Test func toggleStartsPauseAndMarkActAndToggleSavesTheAppsRecording() throws {
        let sandbox = try ControlSocketCommandTests.sandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-20")
        try app.waitForStart("Listening to tone:440@-20")
        _ = try app.waitFor("No memos yet")

        let idle = try status(sandbox)
        #expect(idle["process"] as? String == "app" && idle["state"] as? String == "idle", "\(idle)")

        let started = try sandbox.run("toggle")
        #expect(started.status == 0 && started.standardOutput == "starting a recording\n", "\(started)")
        var screen = try app.waitForRecording(atLeast: 1)
        #expect(screen.contains("● REC"), "\(screen)")
        let recording = try status(sandbox)
        #expect(recording["state"] as? String == "recording", "\(recording)")
        #expect(recording["memo"] as? Int != nil && recording["title"] as? String != nil, "\(recording)")

        let paused = try sandbox.run("pause")
        #expect(paused.status == 0 && paused.standardOutput == "paused the recording\n", "\(paused)")
        screen = try app.waitFor("❚❚ PAUSED")
        #expect(screen.contains("❚❚ PAUSED"), "\(screen)")
        #expect(try status(sandbox)["state"] as? String == "paused")
        #expect(try sandbox.run("pause").standardOutput == "resumed the recording\n")
        screen = try app.waitFor("● REC")
        #expect(screen.contains("● REC"), "\(screen)")

        let marked = try sandbox.run("mark", "--label", "from a hotkey")
        #expect(marked.status == 0 && marked.standardOutput.hasPrefix("marker “from a hotkey” at "), "\(marked)")

        let stopped = try sandbox.run("toggle")
        #expect(stopped.status == 0 && stopped.standardOutput.hasPrefix("stopping and saving “Memo "), "\(stopped)")
        screen = try app.waitFor("Title: Memo ")
        #expect(screen.contains("Title: Memo "), "the stop opens the title prompt as s does: \(screen)")
        try app.press("Enter")
        var memos: [[String: Any]] = []
        let saved = waitUntil(seconds: 10) {
            memos = (try? sandbox.listedMemos()) ?? []
            return (memos.first?["markers"] as? [[String: Any]])?.isEmpty == false && (memos.first?["duration"] as? Double ?? 0) >= 1
        }
        #expect(saved, "\(memos)")
        #expect((memos.first?["markers"] as? [[String: Any]])?.map { $0["label"] as? String } == ["from a hotkey"])
        #expect(try sandbox.run("stop").status == 1, "nothing records in the app now")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
        #expect(try sandbox.run("status").standardOutput.hasPrefix("nothing is recording"), "the app's socket went with it")
    }

    @Test func theAppRunsWithoutTheSocketWhileABackgroundRecordingHoldsIt() throws {
        let sandbox = try ControlSocketCommandTests.sandbox()
        try sandbox.writeConfig("source = tone:440@-20")
        let started = try sandbox.run("toggle")
        #expect(started.status == 0, "\(started)")
        let holder = try status(sandbox)
        #expect(holder["process"] as? String == "record", "\(holder)")
        let pid = try #require(holder["pid"] as? Int)

        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-20")
        try app.waitForStart("Listening to tone:440@-20")
        #expect(try status(sandbox)["pid"] as? Int == pid, "the background recording still serves the library")
        try app.press("q")
        let screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
        // The pane wraps the message at 80 columns; said before the screen was taken and again after.
        let unwrapped = screen.replacingOccurrences(of: "\n", with: "")
        #expect(unwrapped.contains("process \(pid) already serves the control socket; the app runs without it"), "\(screen)")

        let stopped = try sandbox.run("toggle")
        #expect(stopped.status == 0 && stopped.standardOutput.hasPrefix("stopping and saving memo "), "\(stopped)")
        let saved = waitUntil(seconds: 10) { kill(pid_t(pid), 0) != 0 }
        #expect(saved, "the background recording ends")
        #expect(try sandbox.listedMemos().count == 1)
    }

    private func status(_ sandbox: VoiceMemoSandbox) throws -> [String: Any] {
        let outcome = try sandbox.run("status", "--json")
        guard outcome.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
        else { throw LibraryTestFailure(description: "status --json failed: \(outcome)") }
        return object
    }
}
