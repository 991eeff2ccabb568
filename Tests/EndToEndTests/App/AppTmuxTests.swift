import TestSupport
import Foundation
import Testing

/// The full-screen app in tmux, driven as a person would: keys in, the pane's text out.
@Suite(.serialized) struct AppTmuxTests {
    @Test func recordNameDeleteUndoResizeQuit() throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12")
        var screen = try app.waitForStart("Listening to tone:440@-12")
        #expect(screen.contains("input: tone:440@-12 · 48 kHz · 2 ch · FLAC"), "\(screen)")
        // The library opens on the runner after the input: under load the table can still say "Loading".
        screen = try app.waitFor("No memos yet. Press r to record")
        #expect(screen.contains("No memos yet. Press r to record"), "\(screen)")
        // Under load (the whole suite on two cores) the first frame can come before the first level.
        screen = try app.waitFor(" L █")
        #expect(screen.contains(" L █"), "the meter runs while monitoring: \(screen)")

        try app.press("r")
        screen = try app.waitFor("● REC")
        #expect(screen.contains("● REC"), "\(screen)")
        Thread.sleep(forTimeInterval: 2)
        try app.press("s")
        screen = try app.waitFor("Title: Memo ")
        #expect(screen.contains("Title: Memo 20"), "the prompt is prefilled with the default title: \(screen)")
        #expect(screen.contains("type replaces it"), "the title is selected: \(screen)")
        try app.type("Kitchen idea 漢字")
        try app.press("Enter")
        // The prompt `s` opened names the memo just recorded: ⏎ says it is saved so.
        screen = try app.waitFor("Saved “Kitchen idea 漢字”")
        #expect(!screen.contains("Renamed"), "\(screen)")
        let row = screen.split(separator: "\n").first { $0.contains("Kitchen idea 漢字") }
        #expect(row?.contains("00:00:02") == true, "\(screen)")
        #expect(row?.hasPrefix("▶") == true, "the new memo is selected: \(screen)")
        #expect(screen.contains("idle  00:00:00"), "\(screen)")
        // The screen shows the title at ⏎; the rename reaches the library on the effect runner's
        // queue a moment later (longer on a loaded machine): wait for it, within 10 s.
        var listed = try sandbox.run("list", "--json")
        let renamedBy = Date().addingTimeInterval(10)
        while !listed.standardOutput.contains("\"title\": \"Kitchen idea 漢字\""), Date() < renamedBy {
            usleep(100_000)
            listed = try sandbox.run("list", "--json")
        }
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.standardOutput.contains("\"title\": \"Kitchen idea 漢字\""), "the library has it: \(listed)")
        #expect(listed.standardOutput.contains("\"duration\": 2"), "\(listed)")
        // The statistics the app's recorder measured while writing are the file's own.
        let memo = try sandbox.listedMemos().first { ($0["title"] as? String) == "Kitchen idea 漢字" }
        let stored = memo?["loudness_lufs"] as? Double
        let analyzed = try sandbox.run("analyze", "Kitchen idea 漢字", "--json")
        let figures = try JSONSerialization.jsonObject(with: Data(analyzed.standardOutput.utf8)) as? [String: Any]
        let measured = figures?["loudness_lufs"] as? Double
        #expect(stored != nil && measured != nil && abs((stored ?? 0) - (measured ?? 99)) < 0.05, "list \(String(describing: memo)) analyze \(analyzed)")
        #expect(memo?["clips"] as? Int == 0, "\(String(describing: memo))")

        try app.press("d")
        screen = try app.waitFor("No memos. Press u to undo the delete")
        #expect(screen.contains("Moved “Kitchen idea 漢字” to Recently Deleted. Press u to undo."), "\(screen)")
        #expect(!screen.contains("▶ Kitchen"), "\(screen)")
        try app.press("u")
        screen = try app.waitFor("▶ Kitchen idea")
        #expect(screen.contains("▶ Kitchen idea 漢字"), "\(screen)")

        try app.resize(width: 40, height: 12)
        screen = try app.waitFor("Kitchen")
        let narrow = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(narrow.count >= 12 && narrow.contains { $0.contains("Kitchen idea") }, "\(screen)")
        #expect(narrow.allSatisfy { $0.count <= 40 }, "\(screen)")
        try app.resize(width: 10, height: 4)
        screen = try app.waitUntil { $0.split(separator: "\n").allSatisfy { $0.count <= 10 } && $0.contains("00:00:00") }
        #expect(screen.contains("00:00:00"), "the timer survives at 10×4: \(screen)")
        try app.resize(width: 80, height: 24)
        screen = try app.waitFor("VoiceMemo   input")
        #expect(screen.contains("Kitchen idea 漢字"), "\(screen)")

        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
        #expect(screen.contains("MODES: icanon echo END"), "the terminal is back in cooked mode with echo: \(screen)")
    }

    /// On an 8-colour terminal the LED zones use the basic green, yellow and red.
    @Test func eightColourTerminalShowsTheThreeZones() throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-3", environment: "TERM=xterm")
        try app.waitFor("Listening")
        Thread.sleep(forTimeInterval: 0.5)
        let colours = try app.tmux("capture-pane -p -e -t app").standardOutput
        let meterRows = colours.split(separator: "\n").filter { $0.contains(" L ") || $0.contains(" R ") }
        let rows = meterRows.joined(separator: "\n")
        #expect(rows.contains("\u{1B}[32m"), "green: \(rows.debugDescription)")
        #expect(rows.contains("\u{1B}[33m"), "yellow: \(rows.debugDescription)")
        #expect(rows.contains("\u{1B}[31m"), "red (the peak near −3 dB): \(rows.debugDescription)")
        #expect(!rows.contains("38;5;"), "no 256-colour codes on an 8-colour terminal")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    /// A file source under a long path runs out: what happened and what to do come first, the
    /// path last, where the status line may cut it.
    @Test func aFileInputThatRunsOutSaysSoBeforeItsPath() throws {
        let sandbox = try VoiceMemoSandbox()
        let folder = sandbox.file("a-rather-long-folder-name-for-recordings/and-another-level-of-folders")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/the-interview-with-the-mayor-part-one.wav"
        try TestSignals.writeNoiseWAV(to: path, seconds: 1)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(path)")
        let screen = try app.waitFor("The input stopped")
        #expect(screen.contains("The input stopped: it ran out. Press i to choose an input. It was"), "\(screen)")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    @Test func withoutAMicrophoneTheAppStartsAndSaysSo() throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source alsa:no_such_device")
        let screen = try app.waitFor("No microphone")
        #expect(screen.contains("No microphone: ALSA 'no_such_device' cannot be opened"), "\(screen)")
        #expect(screen.contains("Press i to choose an input."), "\(screen)")
        #expect(!screen.contains("ALSA lib"), "alsa-lib prints nothing onto the screen: \(screen)")
        try app.press("i")
        let picker = try app.waitFor("tone:440@-12")
        #expect(picker.contains("Choose an input"), "\(picker)")
        try app.press("Escape")
        try app.press("q")
        let end = try app.waitFor("END")
        #expect(end.contains("EXIT=0"), "\(end)")
    }

    /// A title typed at once after `s`, as fast as tmux sends keys (no wait
    /// for the prompt), is the memo's whole title (a guard dropped keys within 0.3 s of `s`:
    /// "Quick note" lost "Quick"), and ⏎ says it is saved under it.
    @Test func aTitleTypedAtOnceAfterStopIsKeptWhole() throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12")
        try app.waitFor("Listening")
        try app.press("r")
        try app.waitForRecording(atLeast: 1)
        try app.press("s")
        try app.type("Quick note")
        try app.press("Enter")
        let screen = try app.waitFor("Saved “Quick note”")
        #expect(screen.contains("Saved “Quick note”"), "\(screen)")
        #expect(try sandbox.listedMemos().map { $0["title"] as? String } == ["Quick note"])
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    /// `i` opens the picker on the input in use (Enter keeps it), and ALSA's helper plugins
    /// (rate converters, mixers, `null`: what libasound2-plugins lists beside the devices)
    /// are named on the title row as not listed instead of offered as inputs.
    @Test(arguments: [(80, 24), (60, 20), (120, 40)])
    func thePickerStartsOnTheInputInUseAndLeavesOutConvertersAndMixers(width: Int, height: Int) throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:1000@-3", width: width, height: height)
        try app.waitFor("Listening")
        try app.press("i")
        let picker = try app.waitFor("tone:440@-12")
        let rows = picker.split(separator: "\n").map(String.init)
        let selected = rows.first { $0.contains("▶ ") }
        #expect(selected?.contains("▶ tone:1000@-3") == true && selected?.contains("now — test tone, 1 kHz") == true, "\(picker)")
        for helper in ["alsa:null", "alsa:lavrate", "alsa:samplerate", "alsa:upmix"] {
            #expect(!picker.contains(helper), "\(helper) is not offered: \(picker)")
        }
        let title = rows.first { $0.contains("Choose an input") } ?? ""
        #expect(title.contains("not listed: "), "the title row says what was left out: \(picker)")
        #expect(picker.contains("alsa:pulse"), "the devices stay: \(picker)")
        try app.press("Enter")
        let kept = try app.waitFor("Listening to tone:1000@-3")
        #expect(kept.contains("Listening to tone:1000@-3"), "Enter keeps the input in use: \(kept)")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    @Test(arguments: ["TERM", "INT", "HUP"])
    func stopSignalWhileRecordingSavesTheMemoAndRestoresTheTerminal(signal: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12")
        try app.waitFor("Listening")
        try app.press("r")
        try app.waitForRecording(atLeast: 1)
        let pane = try app.tmux("display -p -t app '#{pane_pid}'").standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let kill = try sandbox.shell("kill -\(signal) $(ps -o pid= --ppid \(pane))")
        #expect(kill.status == 0, "\(kill)")
        let screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
        #expect(screen.contains("MODES: icanon echo END"), "\(screen)")
        let listed = try sandbox.run("list", "--json")
        #expect(listed.standardOutput.contains("\"title\": \"Memo 20"), "the memo was kept: \(listed)")
        #expect(listed.standardOutput.contains("\"state\": \"complete\""), "\(listed)")
    }
}
