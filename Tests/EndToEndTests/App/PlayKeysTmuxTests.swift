import Foundation
import TestSupport
import Testing

/// `voicememo play` on a terminal (tmux) takes the app's playback keys — space, ← →, [ ], q —
/// and gives the terminal back as it found it on every way out; with standard input not a
/// terminal it reads no keys.
@Suite(.serialized)
struct PlayKeysTmuxTests {
    private func session(_ extra: String = "") throws -> (AppTmuxSession, PulseTestSink) {
        let sandbox = try VoiceMemoSandbox()
        let sink = try sandbox.usePulse()
        try TestSignals.writeSines(to: sandbox.file("tone.wav"), levels: [-6, -6], seconds: 40)
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "play tone.wav --device \(VoiceMemoSandbox.pulseDevice)\(extra)", width: 100)
        return (app, sink)
    }

    /// The play head's seconds on the live line (`▶ 00:00:12 / 00:00:40`), or -1.
    private static func elapsed(_ screen: String) -> Int {
        guard let range = screen.range(of: #"(▶|❚❚) 00:(\d\d):(\d\d) /"#, options: .regularExpression) else { return -1 }
        let text = screen[range].filter { $0.isNumber || $0 == ":" }.split(separator: ":")
        guard text.count == 3, let minutes = Int(text[1]), let seconds = Int(text[2]) else { return -1 }
        return minutes * 60 + seconds
    }

    @Test func spaceArrowsBracketsAndQAndTheTerminalComesBack() throws {
        let (app, sink) = try session()
        defer { withExtendedLifetime(sink) {} }
        var screen = try app.waitUntil(timeout: 15) { Self.elapsed($0) >= 1 }
        #expect(Self.elapsed(screen) >= 1, "\(screen)")
        try app.press("Space")
        screen = try app.waitFor("❚❚")
        #expect(screen.contains("❚❚"), "\(screen)")
        let pausedAt = Self.elapsed(screen)
        try app.press("Space")
        screen = try app.waitFor("▶")
        #expect(screen.contains("▶"), "\(screen)")
        try app.press("Right", "Right")
        screen = try app.waitUntil { Self.elapsed($0) >= pausedAt + 10 }
        #expect(Self.elapsed(screen) >= pausedAt + 10, "two → seek 10 s: \(screen)")
        let ahead = Self.elapsed(screen)
        try app.press("Left")
        screen = try app.waitUntil { (0..<ahead - 3).contains(Self.elapsed($0)) }
        #expect((0..<ahead - 3).contains(Self.elapsed(screen)), "← seeks back 5 s: \(screen)")
        try app.press("]", "]")
        screen = try app.waitFor("1.2×")
        #expect(screen.contains("1.2×"), "\(screen)")
        try app.press("[")
        screen = try app.waitFor("1.1×")
        #expect(screen.contains("1.1×"), "\(screen)")
        try app.press("q")
        screen = try app.waitFor("EXIT=")
        #expect(screen.contains("EXIT=0 MODES: icanon echo END"), "q exits 0 and restores the terminal: \(screen)")
    }

    @Test func aStopSignalRestoresTheTerminal() throws {
        let (app, sink) = try session()
        defer { withExtendedLifetime(sink) {} }
        let screen = try app.waitUntil(timeout: 15) { Self.elapsed($0) >= 1 }
        #expect(Self.elapsed(screen) >= 1, "\(screen)")
        _ = try app.sandbox.shell("kill -TERM $(pgrep -P \(try app.panePID()) -x voicememo)", timeout: .seconds(10))
        let after = try app.waitFor("EXIT=")
        #expect(after.contains("EXIT=0 MODES: icanon echo END"), "\(after)")
    }

    @Test func withStandardInputNotATerminalNoKeysAreRead() throws {
        let (app, sink) = try session(" < /dev/null")
        defer { withExtendedLifetime(sink) {} }
        var screen = try app.waitUntil(timeout: 15) { Self.elapsed($0) >= 1 }
        let before = Self.elapsed(screen)
        #expect(before >= 1, "\(screen)")
        try app.press("Space")
        try app.press("q")
        screen = try app.waitUntil { Self.elapsed($0) >= before + 2 }
        #expect(Self.elapsed(screen) >= before + 2, "still playing: \(screen)")
        #expect(!screen.contains("❚❚") && !screen.contains("EXIT="), "\(screen)")
    }

    /// Silence in the memo reads below the meter's floor ("peak <-60 dB"), not as a figure
    /// like -160.0 dB; paused, the line says so and shows no level at all (nothing is measured).
    @Test func silenceReadsBelowTheFloorAndPausedShowsNoLevel() throws {
        let sandbox = try VoiceMemoSandbox()
        let sink = try sandbox.usePulse()
        defer { withExtendedLifetime(sink) {} }
        try TestSignals.writeSines(to: sandbox.file("pause.wav"), sections: [(1, [-6, -6]), (40, [nil, nil])])
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "play pause.wav --device \(VoiceMemoSandbox.pulseDevice)", width: 80)
        var screen = try app.waitUntil(timeout: 15) { Self.elapsed($0) >= 3 }
        let line = { (screen: String) in screen.split(separator: "\n").first { $0.contains(" / 00:00:41") }.map(String.init) ?? "" }
        #expect(line(screen).contains("peak <-60 dB"), "\(screen)")
        try app.press("Space")
        screen = try app.waitFor("❚❚")
        #expect(line(screen).contains("paused (space resumes)"), "\(screen)")
        #expect(!line(screen).contains("peak") && !line(screen).contains("-160"), "\(screen)")
        try app.press("q")
        screen = try app.waitFor("EXIT=")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }
}
