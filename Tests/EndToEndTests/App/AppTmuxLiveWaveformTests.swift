import Foundation
import Testing

/// While it records, the band under the meter is the recording's
/// own waveform and says so; before, it went on showing the selected memo's (here a memo of
/// near-silence, so its band was blank while a −12 dBFS tone recorded).
@Suite struct AppTmuxLiveWaveformTests {
    @Test func theBandShowsTheRecordingWhileItRecords() throws {
        let sandbox = try VoiceMemoSandbox()
        let quiet = try sandbox.run("record", "--source", "tone:440@-80", "--duration", "1", "--title", "Hush", "--no-transcribe")
        #expect(quiet.status == 0, "\(quiet)")
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12")
        var screen = try app.waitForStart("Listening to tone:440@-12")
        screen = try app.waitFor("▶ Hush")
        #expect(!screen.contains("this recording"), "idle: the band is the selected memo's: \(screen)")

        try app.press("r")
        // Two seconds of the tone fill 16 columns at the right of the band.
        screen = try app.waitUntil(timeout: 15) { screen in
            Self.bandRow(of: screen).map { $0.suffix(16).allSatisfy { $0 != " " } } == true
        }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let band = try #require(Self.bandRow(of: screen), "the band is under the scale: \(screen)")
        #expect(band.suffix(16).allSatisfy { "▁▂▃▄▅▆▇█".contains($0) }, "the tone's columns, newest at the right: \(screen)")
        #expect(band.prefix(40).allSatisfy { $0 == " " }, "before the recording began: blank: \(screen)")
        #expect(lines.contains { $0.hasPrefix(" live: this recording, the last 10 s") }, "it says what it shows: \(screen)")

        try app.press("r")
        screen = try app.waitFor("paused: this recording")
        #expect(screen.contains("paused: this recording"), "\(screen)")
        try app.press("s")
        screen = try app.waitFor("Title: Memo ")
        try app.press("Enter")
        screen = try app.waitUntil(timeout: 15) { $0.contains("Saved") && !$0.contains("this recording") }
        #expect(!screen.contains("this recording"), "saved: the band is the selected memo's again: \(screen)")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// The row under the meter's scale (" -60 … dBFS"), when there is one.
    static func bandRow(of screen: String) -> String? {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let scale = lines.firstIndex(where: { $0.contains("dBFS") && $0.contains("-60") }), scale + 1 < lines.count else { return nil }
        let row = lines[scale + 1]
        return row.count >= 80 ? row : row + String(repeating: " ", count: 80 - row.count)
    }
}
