import Foundation
import TestSupport
import Testing

/// The app's talking-app replay (`V`: Replay on, Pitch +7) through the suite's PulseAudio: the
/// app's playback device (`--device vm_pulse`) plays into a null sink whose monitor is the
/// app's input, so the input hears the replay; one phrase makes one take, one replay, and no
/// take from the replay.
@Suite(.serialized)
struct AppTmuxVoiceReplayTests {
    private func events(_ log: String, _ name: String) -> [Double] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix(name + " ") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
    }

    @Test func oneTakeIsReplayedOnThePlaybackDeviceAndTheReplayMakesNoTake() throws {
        let sandbox = try VoiceMemoSandbox()
        let sink = try sandbox.usePulse()
        defer { withExtendedLifetime(sink) {} }
        let log = sandbox.file("events.log")
        // 5 s of tone: the replay (as long as the take) is what the screen is polled for, and
        // under the suite's load a poll can take a second or more — a 1 s phrase's replay was
        // over before the poll after `paplay` saw it (CI: one take, one replay_end, yet the
        // screen never caught "▶ replaying" with the meter up).
        try TestSignals.writeSines(to: sandbox.file("phrase.wav"), sections: [(5, [-12, -12]), (0.5, [nil, nil])])
        try sandbox.writeConfig("vox.level_only = on")  // a tone phrase is not speech
        let app = try AppTmuxSession(
            sandbox: sandbox,
            arguments: "--source alsa:vm_pulse --rate 48000 --channels 2 --format wav --device vm_pulse",
            environment: "VOICEMEMO_EVENT_LOG='\(log)'")
        try app.waitForStart("Listening to alsa:vm_pulse", timeout: 20)
        // Silence 0.5 s (25 steps down from 3.0), then Replay on and Pitch +7, as a person would.
        try app.press("V")
        try app.waitFor("Replay")
        try app.press("Down")
        for _ in 0..<25 { try app.press("Left") }
        try app.press("Down", "Down", "Down", "Right", "Down")
        for _ in 0..<7 { try app.press("Right") }
        var screen = try app.waitFor("▶ Pitch     ◀   +7 st ▶")
        #expect(screen.contains("  Silence       0.5 s"), "\(screen)")
        #expect(screen.contains("  Replay           on"), "\(screen)")
        try app.press("Escape", "v")
        screen = try app.waitFor("listening for -40 dB", timeout: 20)
        #expect(screen.contains("7 semitones higher"), "\(screen)")

        let played = try sandbox.shell("paplay --device=\"$PULSE_SINK\" phrase.wav; echo status=$?", timeout: .seconds(30))
        #expect(played.standardOutput.contains("status=0"), "\(played)")
        // The input hears the replay (the meter reads it) while the detector ignores it.
        screen = try app.waitUntil(timeout: 20) {
            $0.contains("▶ replaying, not listening") && MeterRows.levels($0).contains { $0 > -40 }
        }
        #expect(screen.contains("▶ replaying, not listening"), "\(screen)")
        #expect(MeterRows.levels(screen).contains { $0 > -40 }, "the replay reaches the input: \(screen)")
        #expect(screen.contains("◎ VOICE") && !screen.contains("● VOICE REC"), "\(screen)")
        screen = try app.waitUntil(timeout: 30) { _ in !events(log, "replay_end").isEmpty }
        #expect(events(log, "replay_end").count == 1, "\(screen)")
        screen = try app.waitFor("listening for -40 dB", timeout: 10)

        try app.press("v")
        screen = try app.waitFor("Voice activation off", timeout: 10)
        #expect(screen.contains("Voice activation off."), "no take was in progress: \(screen)")
        try app.press("q")
        screen = try app.waitFor("END", timeout: 20)
        #expect(screen.contains("EXIT=0"), "\(screen)")

        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1, "one phrase, one memo; none from the replay: \(memos)")
        let starts = events(log, "replay_start")
        let ends = events(log, "replay_end")
        #expect(starts.count == 1 && ends.count == 1, "one replay: \(starts) \(ends)")
        // It played in real time on the device, and the input stayed ignored 0.5 s after it.
        let duration = memos.first?["duration"] as? Double ?? 99
        if let start = starts.first, let end = ends.first {
            #expect(end - start >= duration + 0.5 - 0.05, "replay \(start)…\(end), take \(duration) s")
        }
    }

    /// `v` during a replay (at the take's own pitch: the player without SoundTouch) cuts it
    /// short: disarming cancels the replay before it joins the thread that plays it.
    @Test func vDuringAReplayCutsItShortAndDisarms() throws {
        let sandbox = try VoiceMemoSandbox()
        let sink = try sandbox.usePulse()
        defer { withExtendedLifetime(sink) {} }
        let log = sandbox.file("events.log")
        try TestSignals.writeSines(to: sandbox.file("phrase.wav"), sections: [(4, [-12, -12]), (0.5, [nil, nil])])
        try sandbox.writeConfig("vox.level_only = on")  // a tone phrase is not speech
        let app = try AppTmuxSession(
            sandbox: sandbox,
            arguments: "--source alsa:vm_pulse --rate 48000 --channels 2 --format wav --device vm_pulse",
            environment: "VOICEMEMO_EVENT_LOG='\(log)'")
        try app.waitForStart("Listening to alsa:vm_pulse", timeout: 20)
        try app.press("V")
        try app.waitFor("Replay")
        try app.press("Down")
        for _ in 0..<15 { try app.press("Left") }
        try app.press("Down", "Down", "Down", "Right")
        var screen = try app.waitFor("  Silence       0.5 s")
        try app.press("Escape", "v")
        screen = try app.waitFor("listening for -40 dB", timeout: 20)
        #expect(screen.contains("each take is replayed. v turns it off"), "\(screen)")
        let played = try sandbox.shell("paplay --device=\"$PULSE_SINK\" phrase.wav; echo status=$?", timeout: .seconds(30))
        #expect(played.standardOutput.contains("status=0"), "\(played)")
        screen = try app.waitFor("▶ replaying, not listening", timeout: 20)
        try app.press("v")
        screen = try app.waitFor("Voice activation off", timeout: 10)
        #expect(screen.contains("Voice activation off."), "\(screen)")
        screen = try app.waitUntil(timeout: 10) { _ in !events(log, "replay_end").isEmpty }
        try app.press("q")
        screen = try app.waitFor("END", timeout: 20)
        #expect(screen.contains("EXIT=0"), "\(screen)")
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1, "\(memos)")
        let duration = memos.first?["duration"] as? Double ?? 0
        let starts = events(log, "replay_start")
        let ends = events(log, "replay_end")
        #expect(starts.count == 1 && ends.count == 1, "\(starts) \(ends)")
        if let start = starts.first, let end = ends.first {
            #expect(end - start < duration, "cut short: replay \(start)…\(end), take \(duration) s")
        }
    }
}
