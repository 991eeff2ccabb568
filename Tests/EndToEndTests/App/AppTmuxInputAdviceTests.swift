import TestSupport
import Foundation
import Testing

/// What the status line advises about the input, at 80×24, fitted to the input in use: a
/// file is not told about mixers, a PulseAudio input is told the app's own keys and the
/// desktop's settings (not alsamixer); and the advice never hides the transcription's progress.
@Suite(.serialized) struct AppTmuxInputAdviceTests {
    /// The screen's status rows (above the footer, below the bottom separator), one string each.
    static func statusRows(_ screen: String) -> [String] {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let separator = lines.lastIndex(where: { $0.hasPrefix("────") }) else { return [] }
        return Array(lines[(separator + 1)...].prefix { !$0.isEmpty }.dropLast())
    }

    @Test func aSilentFileIsNotToldAboutMixers() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.directory.path("quiet.wav").path
        try TestSignals.writeSines(to: path, levels: [nil, nil], seconds: 60)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(path)")
        let screen = try app.waitFor("is silent", timeout: 12)
        #expect(Self.statusRows(screen) == [" Input is silent: this part of the file holds no sound"], "\(screen)")
        #expect(!screen.contains("alsamixer"), "\(screen)")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    /// Through ALSA's pulse plugin: silence offers M and `>` and the desktop's settings; a
    /// sound too hot offers `<`.
    @Test func aPulseInputIsToldTheAppsKeysAndTheDesktopsSettings() throws {
        let sandbox = try VoiceMemoSandbox()
        let sink = try sandbox.usePulse()
        defer { withExtendedLifetime(sink) {} }
        _ = try sandbox.shell("pactl set-source-volume '\(sink.monitor)' 100% && pactl set-source-mute '\(sink.monitor)' 0")
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source alsa:\(VoiceMemoSandbox.pulseDevice)")
        var screen = try app.waitFor("is silent", timeout: 15)
        #expect(Self.statusRows(screen) == [" Input is silent: press M if muted, > to raise; or the desktop's sound settings"], "\(screen)")
        #expect(!screen.contains("alsamixer"), "\(screen)")
        try TestSignals.writeSines(to: sandbox.file("hot.wav"), levels: [-0.5, -0.5], seconds: 20)
        // paplay runs beside the test while the screen is read (a shell's background job ends
        // with the shell).
        _ = FileManager.default.createFile(atPath: sandbox.file("paplay.err"), contents: nil)
        let player = try ProcessRunner.spawn(
            URL(fileURLWithPath: "/usr/bin/paplay"), arguments: ["--device=" + (sandbox.environment["PULSE_SINK"] ?? ""), sandbox.file("hot.wav")],
            environment: sandbox.environment, standardInput: "/dev/null", standardOutput: "/dev/null", standardError: sandbox.file("paplay.err"))
        defer {
            kill(player, SIGKILL)
            var status: Int32 = 0
            waitpid(player, &status, 0)
        }
        screen = try app.waitFor("Too hot", timeout: 15)
        #expect(Self.statusRows(screen).joined().contains("Too hot: less than 3 dB of headroom or clipping; press < to lower the gain"), "\(screen)")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    /// A silent input while a memo is transcribed: both are on the screen at 80×24, the
    /// progress on a status row of its own.
    @Test
    func theAdviceDoesNotHideTheTranscriptionsProgress() throws {
        let (sandbox, log) = try TranscriptionAppTests.longMemoToTranscribe()
        let path = sandbox.directory.path("quiet.wav").path
        try TestSignals.writeSines(to: path, levels: [nil, nil], seconds: 120)
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source file:\(path)", environment: "VOICEMEMO_EVENT_LOG='\(log)'")
        let screen = try app.waitUntil(timeout: 60) { $0.contains("is silent") && $0.contains("Transcribing “long”") }
        #expect(screen.contains("is silent") && screen.contains("Transcribing “long”"), "\(screen)")
        try app.press("q")
        #expect(try app.waitFor("END", timeout: 30).contains("EXIT=0"))
    }
}
