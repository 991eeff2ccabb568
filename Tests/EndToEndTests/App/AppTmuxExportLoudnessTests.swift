import Foundation
import Testing

/// `E` proposes the memo's own format with the name
/// selected (typing replaces it, the extension stays), says how to clear the line (`^U`) and
/// offers the podcast loudness (Ctrl-L: −16 LUFS, −1 dBTP), which the copy then measures.
@Suite(.serialized) struct AppTmuxExportLoudnessTests {
    @Test func thePromptSelectsTheNameControlLExportsAtPodcastLoudnessAndTabCompletes() throws {
        let sandbox = try VoiceMemoSandbox()
        let recorded = try sandbox.shell("""
            espeak-ng -w speech22.wav "Standup notes. The export prompt now selects the name, and tab offers the podcast loudness." \
              && sox speech22.wav -r 48000 -c 1 speech.wav && VOICEMEMO_UNPACED=1 voicememo record --source file:speech.wav --format mp3 --title Standup --no-transcribe > /dev/null
            """, timeout: .seconds(60))
        #expect(recorded.status == 0, "\(recorded)")
        let home = sandbox.directory.path("home").path
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12", launcher: "cd '\(home)' &&")
        _ = try app.waitForStart("Listening to tone:440@-12")
        _ = try app.waitFor("▶ Standup")

        try app.press("E")
        var screen = try app.waitFor("Export to: ")
        #expect(screen.contains("/home/Standup.mp3"), "the memo's own format, not .flac: \(screen)")
        #expect(screen.contains("type renames") && screen.contains("^U clear") && screen.contains("^L -16 LUFS"),
                "the footer says what typing does, how to clear the line and the loudness key: \(screen)")
        try app.type("Weekly")
        screen = try app.waitFor("/home/Weekly.mp3")
        #expect(!screen.contains("Standup.mp3"), "typing replaced the name only: \(screen)")
        try app.press("C-l")
        screen = try app.waitFor("Export at -16 LUFS to: ")
        try app.press("Enter")
        screen = try app.waitFor("Exported “Standup” at -16", timeout: 60)
        #expect(screen.contains("LUFS (true peak -1"), "the notice gives the copy's loudness before the path: \(screen)")

        let copy = home + "/Weekly.mp3"
        let analyzed = try sandbox.run("analyze", copy, "--json")
        let json = try JSONSerialization.jsonObject(with: Data(analyzed.standardOutput.utf8)) as? [String: Any]
        let loudness = try #require(json?["loudness_lufs"] as? Double, "\(analyzed)")
        let truePeak = try #require(json?["true_peak_dbtp"] as? Double, "\(analyzed)")
        #expect(abs(loudness - -16) <= 0.5 && truePeak <= -1, "\(loudness) LUFS, \(truePeak) dBTP")

        // The next prompt keeps the podcast loudness (the last used); ^U clears the line.
        try app.press("E")
        _ = try app.waitFor("Export at -16 LUFS to: ")
        try app.press("C-u")
        screen = try app.waitUntil { !$0.contains("/home/Standup.mp3") }
        #expect(screen.contains("⏎ export"), "\(screen)")
        // Tab completes the path: the home folder's one entry starting with "Wee".
        try app.type(home + "/Wee")
        try app.press("Tab")
        _ = try app.waitFor(home + "/Weekly.mp3")
        try app.press("C-l")
        _ = try app.waitFor("Export to: ")
        try app.press("Escape")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }
}
