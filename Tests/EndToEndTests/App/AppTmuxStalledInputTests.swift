import Foundation
import TestSupport
import Testing

/// The full-screen app recording from a sound server that stops answering (a private
/// PulseAudio daemon, SIGSTOPped): the status line says so after 2 s, the meter and keys stay
/// live, and `q`, `y` saves the memo and exits within 1 s — then the same with SIGTERM.
@Suite struct AppTmuxStalledInputTests {
    private static let device = "vm_stall"

    /// Sends `keys` (or `signal` to the app) and measures, in one shell, how long the app's
    /// process lives after it: polled every 5 ms from the moment the key or signal was sent.
    private func exitTime(of app: AppTmuxSession, afterSending keys: String?, signal: String? = nil) throws -> Int? {
        let pane = try app.panePID()
        let send = keys.map { "tmux -L \(app.socket) send-keys -t app \($0)" } ?? "kill -\(signal ?? "TERM") $app"
        let outcome = try app.sandbox.shell("""
            app=$(pgrep -P \(pane) -x voicememo) || { echo "no app"; exit 1; }
            t0=$(date +%s%N); \(send)
            limit=$(( t0 + 10000000000 ))
            while kill -0 $app 2>/dev/null && [ "$(date +%s%N)" -lt "$limit" ]; do sleep 0.005; done
            echo "exit_ms=$(( ($(date +%s%N) - t0) / 1000000 ))"
            """, timeout: .seconds(30))
        return outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix("exit_ms=") }
            .flatMap { Int($0.dropFirst("exit_ms=".count)) }
    }

    @Test(arguments: ["q", "TERM"])
    func aStalledInputIsSaidAndQuittingSavesWithinOneSecond(_ how: String) throws {
        let daemon = try PulsePrivateDaemon()
        let sandbox = try VoiceMemoSandbox.onPrivatePulse(daemon, device: Self.device)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source alsa:\(Self.device) --format wav")
        var screen = try app.waitFor("Listening to alsa:\(Self.device)", timeout: 15)
        try app.press("r")
        screen = try app.waitForRecording(atLeast: 1, timeout: 15)
        #expect((AppTmuxSession.recordedSeconds(screen) ?? 0) >= 1, "recording: \(screen)")

        daemon.suspend()
        defer { daemon.resume() }
        screen = try app.waitFor("No audio from the input for 2 s: is the audio server running?", timeout: 10)
        #expect(screen.contains("No audio from the input for 2 s"), "the status line says it: \(screen)")
        #expect(screen.contains("● REC"), "still recording: \(screen)")
        // Keys are still read while the input is stalled.
        try app.press("?")
        let help = try app.waitFor("closes", timeout: 5)
        try app.press("Escape")
        _ = try app.waitFor("r record/pause", timeout: 5)
        print("AppTmuxStalledInputTests: stalled while recording:\n\(screen)")

        let milliseconds: Int?
        if how == "q" {
            try app.press("q")
            let asked = try app.waitFor("Stop, save and quit? (y/N)", timeout: 5)
            #expect(asked.contains("Stop, save and quit? (y/N)"), "\(asked)")
            milliseconds = try exitTime(of: app, afterSending: "y")
        } else {
            milliseconds = try exitTime(of: app, afterSending: nil, signal: how)
        }
        screen = try app.waitFor("END", timeout: 10)
        daemon.resume()
        print("AppTmuxStalledInputTests: \(how) with the input stalled: the app exited \(milliseconds.map(String.init) ?? "?") ms after it")
        #expect(help.contains("closes"), "the help opened: \(help)")
        #expect(screen.contains("EXIT=0"), "\(screen)")
        #expect(screen.contains("MODES: icanon echo END"), "the terminal is restored: \(screen)")
        let exitMilliseconds = try #require(milliseconds)
        #expect(exitMilliseconds < 1000, "exited \(exitMilliseconds) ms after \(how)")

        let listed = try sandbox.run("list", "--json")
        let memos = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]], "\(listed)")
        #expect(memos.count == 1, "\(memos)")
        #expect(memos.first?["state"] as? String == "complete", "\(memos)")
        #expect((memos.first?["duration"] as? Double ?? 0) >= 1, "what was recorded before the stall is kept: \(memos)")
    }

    /// Switching (`i`) to an input whose server has stopped: the open runs beside the loop,
    /// the status line says it gets no answer, and `q` quits at once (the open is abandoned).
    @Test func switchingToAStalledInputSaysSoAndQuitQuitsAtOnce() throws {
        let daemon = try PulsePrivateDaemon()
        let sandbox = try VoiceMemoSandbox.onPrivatePulse(daemon, device: Self.device)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source alsa:\(Self.device) --format wav")
        _ = try app.waitFor("Listening to alsa:\(Self.device)", timeout: 15)
        daemon.suspend()
        defer { daemon.resume() }
        try app.press("i")
        // Select it in the picker (ALSA lists it among its devices, in ALSA's order).
        let picker = try app.waitUntil(timeout: 10) { $0.contains("Choose an input") && $0.contains("tone:1000@-3") }
        let choices = picker.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.contains("Choose an input") }.dropFirst()
        let position = try #require(choices.firstIndex { $0.contains("alsa:\(Self.device)") }, "\(picker)") - choices.startIndex
        for _ in 0..<position { try app.press("Down") }
        let selected = try app.waitUntil(timeout: 5) { $0.contains("▶ alsa:\(Self.device)") }
        #expect(selected.contains("▶ alsa:\(Self.device)"), "\(selected)")
        try app.press("Enter")
        let stalled = try app.waitFor("no answer for", timeout: 10)
        #expect(stalled.contains("Opening alsa:\(Self.device)… no answer for"), "the status line says it: \(stalled)")
        // The loop is live: the help opens and closes while the open waits.
        try app.press("?")
        let help = try app.waitFor("closes", timeout: 5)
        #expect(help.contains("closes"), "\(help)")
        try app.press("Escape")
        _ = try app.waitFor("no answer for", timeout: 5)
        let milliseconds = try exitTime(of: app, afterSending: "q")
        let end = try app.waitFor("END", timeout: 10)
        daemon.resume()
        print("AppTmuxStalledInputTests: q while switching to a stalled input: exited \(milliseconds.map(String.init) ?? "?") ms after it")
        #expect(end.contains("EXIT=0"), "\(end)")
        #expect(end.contains("MODES: icanon echo END"), "the terminal is restored: \(end)")
        let exitMilliseconds = try #require(milliseconds)
        #expect(exitMilliseconds < 1000, "exited \(exitMilliseconds) ms after q")
    }

    /// Starting on an input whose server has stopped: the app gives the open up after its
    /// limit and says why; the library opens behind it and the app works (q quits).
    @Test func aStalledInputAtStartIsGivenUpWithItsReason() throws {
        let daemon = try PulsePrivateDaemon()
        let sandbox = try VoiceMemoSandbox.onPrivatePulse(daemon, device: Self.device)
        daemon.suspend()
        defer { daemon.resume() }
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source alsa:\(Self.device) --format wav")
        let stalled = try app.waitFor("no answer for", timeout: 15)
        #expect(stalled.contains("Opening alsa:\(Self.device)… no answer for"), "\(stalled)")
        let gaveUp = try app.waitFor("No answer from alsa:\(Self.device) for 8 s", timeout: 30)
        #expect(gaveUp.contains("is the audio server running?"), "\(gaveUp)")
        let loaded = try app.waitUntil(timeout: 15) { !$0.contains("Loading the library") }
        #expect(!loaded.contains("Loading the library"), "the library opened behind it: \(loaded)")
        try app.press("q")
        let end = try app.waitFor("END", timeout: 10)
        #expect(end.contains("EXIT=0"), "\(end)")
    }
}
