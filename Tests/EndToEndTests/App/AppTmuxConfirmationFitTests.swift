import Foundation
import Testing

/// Confirmations (`p` in Recently Deleted, `Z`, `X`, `q` while recording) as a person reads them at 80×24, 60×20
/// and on a short terminal: the whole question and its answer keys are on the screen, worded
/// to fit or wrapped onto the second status row, never cut mid-sentence.
@Suite(.serialized) struct AppTmuxConfirmationFitTests {
    /// The status rows' text (between the bottom separator and the footer), joined by spaces:
    /// what the wrapped confirmation says, read as one sentence.
    static func statusText(_ screen: String) -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let separator = lines.lastIndex(where: { $0.hasPrefix("────") }) else { return "" }
        let rows = lines[(separator + 1)...].prefix { !$0.isEmpty }.dropLast()
        return rows.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    static func makeMemos(_ sandbox: VoiceMemoSandbox, titles: [String]) throws {
        let made = try sandbox.shell("sox -n -r 48000 -c 2 -b 16 tone.wav synth 1 sine 440 vol 0.25 pad 0 2")
        #expect(made.status == 0, "\(made)")
        for title in titles {
            let recorded = try sandbox.run(
                "record", "--source", "file:" + sandbox.file("tone.wav"), "--title", title, "--format", "wav", "--no-transcribe")
            #expect(recorded.status == 0, "\(recorded)")
        }
    }

    @Test func removingPausesAsksTheWholeQuestionAt80x24And60x20() throws {
        let sandbox = try VoiceMemoSandbox()
        try Self.makeMemos(sandbox, titles: ["Standup notes"])
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40")
        _ = try app.waitForStart("Listening to tone:440@-40", timeout: 20)
        let whole = "Cut each pause of “Standup notes” to 0.5 s? (y/N) Below -50 dBFS is a pause; the original goes to Recently Deleted."
        for (width, height) in [(80, 24), (60, 20)] {
            try app.resize(width: width, height: height)
            try app.press("Z")
            let screen = try app.waitUntil { Self.statusText($0).contains("(y/N)") }
            #expect(Self.statusText(screen) == whole, "\(width)x\(height): \(screen)")
            #expect(!screen.contains("…"), "nothing cut: \(screen)")
            try app.press("n")
            _ = try app.waitFor("Not changed.")
        }
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    /// A long title is shortened, the question and its keys are not; on a terminal too short
    /// for two status rows the reason is left out rather than the question.
    @Test func purgingAMemoWithALongTitleKeepsTheQuestion() throws {
        let sandbox = try VoiceMemoSandbox()
        let title = "Interview with the planning committee about the spring budget"
        try Self.makeMemos(sandbox, titles: [title])
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40")
        _ = try app.waitForStart("Listening to tone:440@-40", timeout: 20)
        try app.press("d")
        _ = try app.waitFor("Moved “Interview with the planning")
        try app.press("t")
        _ = try app.waitFor("Recently Deleted")
        try app.press("p")
        var screen = try app.waitFor("(y/N)")
        let text = Self.statusText(screen)
        #expect(text.hasPrefix("Purge “Interview with the planning") && text.hasSuffix("” for good? This cannot be undone. (y/N)"), "\(screen)")
        try app.press("n")
        _ = try app.waitFor("Not purged")
        try app.resize(width: 40, height: 12)
        try app.press("p")
        screen = try app.waitFor("(y/N)")
        let row = screen.split(separator: "\n").first { $0.contains("(y/N)") }.map(String.init) ?? ""
        #expect(row.hasPrefix(" Purge “Interview") && row.hasSuffix("”? (y/N)"), "\(screen)")
        try app.press("n")
        try app.press("q")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }
}
