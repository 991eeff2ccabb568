import Foundation
import TestSupport
import Testing

/// The app recording a sound server's source (`pulse:NAME`, a "microphone" of each test's own
/// on the suite's daemon, fed a tone) that is unplugged mid-recording: the status line says
/// which source went away, and the memo keeps what was recorded; with `on_source_lost =
/// default` the recording goes on from the default source and keeps a marker at the gap.
@Suite struct AppTmuxServerSourceLossTests {
    /// Starts the app on `microphone` with a tone playing into it and records for a second.
    static func recordingApp(
        _ microphone: PulseTestMicrophone, in sandbox: VoiceMemoSandbox
    ) throws -> (AppTmuxSession, Process) {
        try TestSignals.writeSines(to: sandbox.file("tone.wav"), levels: [-12, -12], seconds: 60)
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        player.arguments = ["--server=\(microphone.server)", "-d", microphone.feed, "--latency-msec=20", sandbox.file("tone.wav")]
        player.standardError = FileHandle.nullDevice
        try player.run()
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source pulse:\(microphone.source) --format wav", width: 200, height: 30)
        _ = try app.waitFor("Listening to pulse:\(microphone.source)", timeout: 15)
        try app.press("r")
        _ = try app.waitForRecording(atLeast: 1, timeout: 15)
        return (app, player)
    }

    @Test func anUnpluggedSourceIsNamedOnTheStatusLineAndTheMemoIsKept() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let (app, player) = try Self.recordingApp(microphone, in: sandbox)
        defer { player.terminate() }
        microphone.unplug()
        // Said by the recording ("Recording stopped: … What was recorded is saved as …") and by
        // the input ("The input stopped: …"), in the order they notice; whichever comes last,
        // the reason stays on the status line, and no title prompt takes its place.
        let reason = "the source \"\(microphone.source)\" was removed from the sound server"
        _ = try app.waitFor(reason, timeout: 10)
        // Saved beside the loop: complete once the runner has finished it.
        var memos: [[String: Any]] = []
        try wait(for: "the memo saved (\(memos))", atMost: 15, polling: .milliseconds(200)) {
            memos = (try? sandbox.listedMemos()) ?? []
            return memos.first?["state"] as? String == "complete"
        }
        #expect(memos.count == 1 && (memos.first?["duration"] as? Double ?? 0) >= 1, "what was recorded is kept: \(memos)")
        let after = try app.screen()
        #expect(after.contains(reason) && !after.contains("Title:") && !after.contains("Saved “"), "the reason stays: \(after)")
        try app.press("q")
        let end = try app.waitFor("END", timeout: 15)
        #expect(end.contains("EXIT=0"), "\(end)")
    }

    @Test func withOnSourceLostDefaultTheRecordingGoesOnFromTheDefaultSource() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        try sandbox.writeConfig("on_source_lost = default\n")
        let (app, player) = try Self.recordingApp(microphone, in: sandbox)
        defer { player.terminate() }
        microphone.unplug()
        // The suite's daemon's default source is its null sink's monitor.
        var screen = try app.waitFor("went away; going on from pulse:vsink.monitor (the default source)", timeout: 10)
        #expect(screen.contains("pulse:\(microphone.source) went away; going on from"), "\(screen)")
        screen = try app.waitForRecording(atLeast: 3, timeout: 15)
        #expect(screen.contains("● REC"), "still recording: \(screen)")
        try app.press("s")
        _ = try app.waitFor("Title: Memo ")
        try app.type("Went on")
        try app.press("Enter")
        _ = try app.waitFor("Saved “Went on”")
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1, "one memo: \(memos)")
        let memo = try #require(memos.first)
        #expect((memo["duration"] as? Double ?? 0) >= 3, "\(memo)")
        let markers = memo["markers"] as? [[String: Any]] ?? []
        #expect(
            markers.contains { ($0["label"] as? String)?.hasPrefix("pulse:\(microphone.source) went away: ") == true },
            "the gap is marked: \(memo)")
        try app.press("q")
        let end = try app.waitFor("END", timeout: 15)
        #expect(end.contains("EXIT=0"), "\(end)")
    }
}
