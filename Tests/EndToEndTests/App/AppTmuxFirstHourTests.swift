import Foundation
import Testing

/// The first hour with the app at 80×24, as a person reads it: the selection stays on the
/// memo chosen in a filter, `d` deletes at once and says how to undo it, the empty table says
/// how to get memos back, and `q` leaves the transcript view as it leaves Recently Deleted.
@Suite(.serialized) struct AppTmuxFirstHourTests {
    /// The row the table marks as selected ("▶ Title …"), without the marker.
    static func selectedRow(_ screen: String) -> String? {
        screen.split(separator: "\n").first { $0.hasPrefix("▶") }.map { String($0.dropFirst()).trimmingCharacters(in: .whitespaces) }
    }

    @Test func theSelectionStaysOnTheMemoAndDDeletesItAtOnce() throws {
        let sandbox = try VoiceMemoSandbox()
        // Newest first in the table: Budget, Night train, Birthday, Training plan, Dentist, Train times, Shopping.
        try AppTmuxConfirmationFitTests.makeMemos(
            sandbox, titles: ["Shopping", "Train times", "Dentist", "Training plan", "Birthday", "Night train", "Budget"])
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40")
        var screen = try app.waitForStart("Listening to tone:440@-40", timeout: 20)
        #expect(Self.selectedRow(screen)?.hasPrefix("Budget") == true, "\(screen)")

        try app.press("/")
        try app.type("train")
        screen = try app.waitUntil { !$0.contains("Birthday") && $0.contains("Train times") }
        try app.press("Down", "Down", "Enter")
        screen = try app.waitUntil { Self.selectedRow($0)?.hasPrefix("Train times") == true }
        #expect(Self.selectedRow(screen)?.hasPrefix("Train times") == true, "the third match: \(screen)")
        try app.press("Escape")
        screen = try app.waitFor("Birthday")
        #expect(Self.selectedRow(screen)?.hasPrefix("Train times") == true, "Esc keeps the memo selected: \(screen)")

        try app.press("d")
        screen = try app.waitFor("Moved “Train times” to Recently Deleted. Press u to undo.")
        #expect(!screen.contains("(y/N)"), "nothing asked: \(screen)")
        #expect(!screen.contains("Train times  "), "gone from the table: \(screen)")
        #expect(Self.selectedRow(screen)?.hasPrefix("Shopping") == true, "the next memo: \(screen)")
        let listed = try sandbox.run("list", "--json")
        #expect(!listed.standardOutput.contains("\"title\": \"Train times\""), "deleted in the library: \(listed)")
        #expect(listed.standardOutput.contains("\"title\": \"Birthday\""), "\(listed)")

        // Everything deleted: the empty table says how to get the memos back.
        for _ in 0..<6 { try app.press("d") }
        screen = try app.waitFor("No memos. Press u to undo the delete, t for Recently Deleted, r to record.")
        #expect(screen.contains("No memos. Press u to undo the delete, t for Recently Deleted, r to record."), "\(screen)")
        try app.press("u")
        screen = try app.waitFor("Restored")
        #expect(Self.selectedRow(screen)?.hasPrefix("Budget") == true, "\(screen)")

        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    @Test func qLeavesTheTranscriptAndSlashFindsByWords() throws {
        let sandbox = try VoiceMemoSandbox()
        try AppTmuxConfirmationFitTests.makeMemos(sandbox, titles: ["Garden idea"])
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40")
        _ = try app.waitForStart("Listening to tone:440@-40", timeout: 20)
        try app.press("T")
        var screen = try app.waitFor("Transcript of “Garden idea”")
        #expect(screen.contains("q back") || screen.contains("Esc q"), "the way back is on the footer: \(screen)")
        #expect(screen.contains("/ find"), "\(screen)")
        try app.press("q")
        screen = try app.waitUntil { !$0.contains("Transcript of") && $0.contains("Garden idea") }
        #expect(!screen.contains("Transcript of"), "back on the table: \(screen)")
        #expect(!screen.contains("EXIT="), "the app runs on: \(screen)")
        try app.press("T")
        _ = try app.waitFor("Transcript of “Garden idea”")
        try app.press("/")
        screen = try app.waitFor("Find:")
        #expect(!screen.contains("Transcript of"), "\(screen)")
        try app.press("Escape")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }
}
