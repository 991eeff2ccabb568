import Foundation
import TestSupport
import Testing

/// The input picker (`i`) with a sound server answering: a private PulseAudio daemon whose
/// default source is a "microphone" of the test's own (`PulseTestMicrophone`). The picker
/// offers the server's sources first, by their descriptions, the default marked; choosing the
/// microphone makes it the input the header shows.
@Suite struct AppTmuxServerSourcePickerTests {
    /// Waits for the app on `tone:440@-20` to start, presses `i` and waits for the picker to
    /// offer `name`: the screen, its rows, and the rows of the current input and of `name`.
    static func openPicker(
        _ app: AppTmuxSession, offering name: String
    ) throws -> (picker: String, rows: [String], current: Int, target: Int) {
        _ = try app.waitForStart("Listening to tone:440@-20")
        try app.press("i")
        let picker = try app.waitUntil(timeout: 10) { $0.contains("Choose an input") && $0.contains(name) }
        let rows = picker.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let current = try #require(rows.firstIndex { $0.contains("tone:440@-20") && $0.contains("now") }, "\(picker)")
        let target = try #require(rows.firstIndex { $0.contains(name) }, "\(picker)")
        return (picker, rows, current, target)
    }

    @Test func thePickerOffersTheServersDefaultMicrophoneByItsDescriptionAndOpensIt() throws {
        // A daemon of the test's own: making the microphone its default would change the
        // shared daemon's default under every other test.
        let daemon = try PulsePrivateDaemon()
        let microphone = try PulseTestMicrophone(server: daemon.address, description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = daemon.address
        let defaulted = try sandbox.shell("pactl set-default-source \(microphone.source)")
        try #require(defaulted.status == 0, "\(defaulted)")
        let name = "pulse:\(microphone.source)"

        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-20 --format wav")
        let (picker, rows, current, target) = try Self.openPicker(app, offering: name)
        #expect(rows[target].contains("default — USB Headset Mono"), "by its description, marked default: \(picker)")
        #expect(rows.contains { $0.contains("pulse:\(microphone.feed).monitor") && $0.contains("Monitor of Feed of USB Headset Mono") }, "\(picker)")
        let alsa = try #require(rows.firstIndex { $0.contains("alsa:") }, "ALSA's devices follow: \(picker)")
        #expect(current < target && target < alsa, "the current input, then the server's sources, then ALSA's: \(picker)")

        for _ in 0..<(target - current) { try app.press("Down") }
        _ = try app.waitFor("▶ \(name)", timeout: 5)
        try app.press("Enter")
        let opened = try app.waitUntil(timeout: 15) { $0.split(separator: "\n").first?.contains("input: \(name)") == true }
        #expect(opened.split(separator: "\n").first?.contains("input: \(name)") == true, "the header shows it: \(opened)")
        try app.press("q")
        let end = try app.waitFor("END", timeout: 15)
        #expect(end.contains("EXIT=0"), "\(end)")
        microphone.unplug()
    }

    /// A server's source unplugged between the listing and the choice does not open: the
    /// input that was open opens again, as for an ALSA device, and the status line says so.
    @Test func aServerSourceGoneBeforeItIsChosenKeepsTheInputThatWasOpen() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let name = "pulse:\(microphone.source)"
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-20")
        let (picker, rows, current, target) = try Self.openPicker(app, offering: name)
        #expect(rows[target].contains("USB Headset Mono"), "\(picker)")
        for _ in 0..<(target - current) { try app.press("Down") }
        _ = try app.waitFor("▶ \(name)", timeout: 5)
        microphone.unplug()
        try app.press("Enter")
        // The open picker lists its inputs again every 2 s: when that comes between the unplug
        // and Enter, the microphone has left the list and Enter keeps the tone without trying.
        let kept = try app.waitUntil(timeout: 15) {
            $0.split(separator: "\n").first?.contains("input: tone:440@-20") == true && !$0.contains("Choose an input")
                && ($0.contains("cannot be opened") || $0.contains("Listening to tone:440@-20"))
        }
        // The status line's two rows, as one line.
        let status = AppTmuxSession.flattened(kept)
        #expect(
            status.contains("Still listening to tone:440@-20: the input \(name) cannot be opened") || !kept.contains(name),
            "the status line names the input kept, then the choice: \(kept)")
        #expect(kept.contains("input: tone:440@-20"), "the header keeps the input: \(kept)")
        let live = try app.waitFor("pk  -20.0", timeout: 5)
        #expect(live.contains("pk  -20.0"), "the tone's meter goes on: \(live)")
        try app.press("q")
        let end = try app.waitFor("END", timeout: 15)
        #expect(end.contains("EXIT=0"), "\(end)")
    }

    /// A microphone plugged in while the picker is open appears in it within a few seconds
    /// (the picker lists its inputs again every 2 s), and the selection stays where it was.
    @Test func aMicrophonePluggedInWhileThePickerIsOpenAppearsInIt() throws {
        let daemon = try PulsePrivateDaemon()
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = daemon.address
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-20")
        _ = try app.waitForStart("Listening to tone:440@-20")
        try app.press("i")
        let before = try app.waitUntil(timeout: 10) { $0.contains("Choose an input") && $0.contains("▶ tone:440@-20") }
        #expect(!before.contains("Webcam Mic"), "\(before)")
        let microphone = try PulseTestMicrophone(server: daemon.address, description: "Webcam Mic")
        let after = try app.waitUntil(timeout: 10) { $0.contains("Webcam Mic") }
        #expect(after.contains("pulse:\(microphone.source)"), "the new microphone is offered: \(after)")
        #expect(after.contains("▶ tone:440@-20"), "the selection stays on the input it was on: \(after)")
        try app.press("Escape")
        try app.press("q")
        let end = try app.waitFor("END", timeout: 15)
        #expect(end.contains("EXIT=0"), "\(end)")
        microphone.unplug()
    }
}
