import Foundation
import Testing

/// `/` and `t` were missing from the memo table's footer at 80 columns, so a
/// first-time user never found the search or Recently Deleted. At 80×24 the idle footer names
/// both, each does what it says, and `s stop` (which stops nothing while idle) shows only while
/// a recording runs.
@Suite struct AppTmuxFooterTests {
    @Test func theIdleFooterAt80ColumnsNamesFindAndDeletedAndEachOpensWhatItSays() throws {
        let sandbox = try VoiceMemoSandbox()
        let made = try sandbox.run("record", "--source", "tone:440@-20", "--duration", "1", "--title", "Standup notes", "--no-transcribe")
        #expect(made.status == 0, "\(made)")
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-20")
        var screen = try app.waitForStart("Listening to tone:440@-20")
        screen = try app.waitFor("▶ Standup notes")
        var footer = Self.footer(of: screen)
        #expect(footer.contains("/ find") && footer.contains("t deleted"), "the idle footer: \(footer)")
        #expect(footer.contains("? help"), "the way to every other key: \(footer)")
        #expect(!footer.contains("s stop"), "nothing to stop while idle: \(footer)")

        try app.press("/")
        screen = try app.waitFor(" Find:")
        #expect(screen.contains(" Find:") && Self.footer(of: screen).contains("Esc clear"), "\(screen)")
        try app.press("Escape")
        screen = try app.waitUntil { Self.footer(of: $0).contains("t deleted") }

        try app.press("t")
        screen = try app.waitFor("Recently Deleted")
        #expect(screen.contains("Recently Deleted (purged after 30 days)"), "\(screen)")
        try app.press("Escape")
        screen = try app.waitUntil { Self.footer(of: $0).contains("/ find") }

        try app.press("r")
        screen = try app.waitUntil(timeout: 15) { Self.footer(of: $0).contains("s stop") }
        footer = Self.footer(of: screen)
        #expect(footer.contains("s stop"), "while recording: \(footer)")
        try app.press("s")
        screen = try app.waitFor("Title: ")
        try app.press("Enter")
        screen = try app.waitUntil(timeout: 15) { $0.contains("Saved") }
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// The footer: the last row of text before the pane's empty rows (the app fills 24 rows).
    static func footer(of screen: String) -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.count >= 24 ? lines[23] : lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    }
}
