import TestSupport
import Foundation
import Testing

/// The app's noise alert and capture keys in tmux, as a person uses them: the alert turned
/// on in the `V` panel over a `file:` room made for the test, the capture keys on the
/// suite's private PulseAudio through ALSA's pulse control plugin and on a server source.
@Suite(.serialized) struct AppTmuxNoiseAlertTests {
    /// The `VOICEMEMO_EVENT_LOG` lines whose name starts with `prefix`.
    static func events(_ path: String, _ prefix: String) -> [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }
    }

    /// The number after `key=` in an event line.
    static func value(_ line: String?, _ key: String) -> Double? {
        guard let line, let range = line.range(of: key + "=") else { return nil }
        return Double(line[range.upperBound...].prefix { $0 != " " })
    }

    /// Knocks (0.3 s every 1.5 s) for 22.5 s, then 2.5 s of steady sound, then silence: with the
    /// alert at −30 dB for 1 s, the knocks never alert and the sound alerts once, 1 s after it
    /// began, with one bell; the message holds, then goes once the room is quiet.
    @Test func knocksNeverAlertSteadySoundAlertsOnceWithOneBell() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.directory.path("room.wav").path
        let knocks = Array(repeating: [(0.3, [Double?](arrayLiteral: -12)), (1.2, [nil])], count: 15).flatMap { $0 }
        try TestSignals.writeSines(to: path, sections: knocks + [(2.5, [-12]), (40, [nil])])
        let log = sandbox.file("events.txt")
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source file:\(path)", environment: "VOICEMEMO_EVENT_LOG='\(log)'")
        try app.waitFor("Listening to")
        try app.press("V")
        try app.waitFor("Alert for")
        // Down past voice activation's four rows and the replay's two, to the alert's switch.
        try app.press("Down", "Down", "Down", "Down", "Down", "Down", "Right", "Escape")
        var screen = try app.waitFor("Noise alert on")
        #expect(screen.contains("above -30 dB for 1.0 s"), "\(screen)")
        let meterRow = screen.split(separator: "\n").first { $0.hasPrefix(" M ") }
        #expect(meterRow?.contains("!") == true, "the alert level is marked on the meter: \(screen)")

        screen = try app.waitUntil(timeout: 45) { _ in !Self.events(log, "bell").isEmpty }
        screen = try app.waitFor("NOISE ALERT", timeout: 5)
        #expect(screen.contains("NOISE ALERT: the level is"), "\(screen)")
        let armedAt = try #require(Self.value(Self.events(log, "noise_alert_on").first, "input"))
        #expect(armedAt < 19.5, "armed while at least two knocks were still to come: \(armedAt)")
        // Gone once the room has been quiet (re-armed) and the message held its minimum.
        screen = try app.waitUntil(timeout: 15) { !$0.contains("NOISE ALERT") }
        #expect(!screen.contains("NOISE ALERT"), "\(screen)")
        let alerts = Self.events(log, "noise_alert level")
        #expect(alerts.count == 1, "once, for the steady sound only: \(alerts)")
        let since = try #require(Self.value(alerts.first, "since"))
        let fired = try #require(Self.value(alerts.first, "input"))
        #expect(abs(since - 22.5) <= 0.25, "the crossing began with the steady sound, not a knock: \(since)")
        #expect(fired - since >= 1.0 && fired - since <= 1.05, "after staying above for 1 s: \(fired - since)")
        #expect(Self.events(log, "bell").count == 1)
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// `<` `>` `M` change the pulse source behind `alsa:vm_pulse` (one step is 1 %: its
    /// control has no dB scale); muted, the silent input says the switch is off and offers M.
    @Test func captureKeysChangeTheServersSourceAndTheSilentMessageOffersM() throws {
        let sandbox = try VoiceMemoSandbox()
        let sink = try sandbox.usePulse()
        _ = try sandbox.shell("pactl set-source-volume '\(sink.monitor)' 40% && pactl set-source-mute '\(sink.monitor)' 0")
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source alsa:\(VoiceMemoSandbox.pulseDevice)")
        try app.waitFor("Listening to", timeout: 15)
        try app.type("<")
        var screen = try app.waitFor("Capture 39 %")
        #expect(try sandbox.pulseSourceState(sink.monitor) == (39, false), "\(screen)")
        try app.type(">")
        try app.waitFor("Capture 40 %")
        try app.type(">")
        screen = try app.waitFor("Capture 41 %")
        #expect(try sandbox.pulseSourceState(sink.monitor) == (41, false), "\(screen)")
        try app.press("M")
        screen = try app.waitFor("switched off (M switches it on)")
        #expect(try sandbox.pulseSourceState(sink.monitor) == (41, true), "\(screen)")
        screen = try app.waitFor("Input is silent: the capture switch is off. Press M to switch it on.", timeout: 12)
        #expect(screen.contains("Press M to switch it on"), "\(screen)")
        try app.press("M")
        screen = try app.waitUntil { $0.contains("Capture 41 %") && !$0.contains("switched off") }
        #expect(try sandbox.pulseSourceState(sink.monitor) == (41, false), "\(screen)")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// `<` `>` `M` on a sound server's source (`pulse:NAME`) move the server's own volume of
    /// it by 1 dB and mute it; the status line shows the source's description and dB.
    @Test func captureKeysMoveAServerSourceBy1dB() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source pulse:\(microphone.source)")
        try app.waitFor("Listening to", timeout: 15)
        try app.type("<")
        var screen = try app.waitFor("Capture (USB Headset Mono) -1.0 dB")
        var decibels = try sandbox.pulseSourceDecibels(microphone.source)
        #expect(decibels.count == 2 && decibels.allSatisfy { abs($0 - -1) <= 0.05 }, "\(decibels) \(screen)")
        try app.type("<")
        try app.waitFor("Capture (USB Headset Mono) -2.0 dB")
        try app.type(">")
        screen = try app.waitFor("Capture (USB Headset Mono) -1.0 dB")
        decibels = try sandbox.pulseSourceDecibels(microphone.source)
        #expect(decibels.count == 2 && decibels.allSatisfy { abs($0 - -1) <= 0.05 }, "\(decibels) \(screen)")
        try app.press("M")
        screen = try app.waitFor("switched off (M switches it on)")
        #expect(try sandbox.pulseSourceState(microphone.source).1, "muted on the server: \(screen)")
        try app.press("M")
        screen = try app.waitUntil { $0.contains("Capture (USB Headset Mono) -1.0 dB") && !$0.contains("switched off") }
        #expect(try sandbox.pulseSourceState(microphone.source).1 == false, "\(screen)")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// An input without a mixer says so, and nothing else changes.
    @Test func aToneHasNoCaptureVolume() throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12")
        try app.waitFor("Listening to")
        try app.type(">")
        var screen = try app.waitFor("has no capture volume")
        #expect(screen.contains("tone:440@-12 has no capture volume: only ALSA inputs"), "\(screen)")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }
}
