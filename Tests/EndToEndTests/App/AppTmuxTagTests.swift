import TestSupport
import Foundation
import Testing

/// Favourites and tags in the app, in tmux: `*` stars the selected memo, `#` tags it, `/tag:work`
/// finds it, and the library has them.
@Suite(.serialized) struct AppTmuxTagTests {
    @Test(arguments: [(80, 24), (120, 40)])
    func starTagAndFindByTag(width: Int, height: Int) throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "Grocery list")
        _ = try sandbox.recordMemo(title: "Budget meeting")
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12", width: width, height: height)
        var screen = try app.waitForStart("Listening to tone:440@-12")
        screen = try app.waitFor("▶ Budget meeting")
        #expect(screen.contains("▶ Budget meeting"), "the newest memo is selected: \(screen)")

        try app.type("*")
        screen = try app.waitFor("▶ ★ Budget meeting")
        #expect(screen.contains("Starred “Budget meeting”. Press u to undo."), "\(screen)")

        try app.type("#")
        // An empty prompt: capture-pane drops the spaces after "Tags:".
        screen = try app.waitFor("add, remove; words: the list")
        #expect(screen.contains(" Tags:"), "the prompt is open: \(screen)")
        try app.type("+Work +q4")
        try app.press("Enter")
        screen = try app.waitFor("#work #q4")
        let row = screen.split(separator: "\n").first { $0.contains("Budget meeting") }
        #expect(row?.contains("★ Budget meeting") == true && row?.contains("#work #q4") == true, "\(screen)")
        #expect(screen.contains("Tagged “Budget meeting”: work q4"), "\(screen)")

        try app.type("/")
        try app.type("tag:work")
        try app.press("Enter")
        screen = try app.waitUntil { $0.contains("filter: tag:work") && !$0.contains("Grocery list") }
        #expect(screen.contains("★ Budget meeting"), "\(screen)")
        #expect(!screen.contains("Grocery list"), "only the tagged memo is listed: \(screen)")
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= width }, "\(screen)")

        // The library has them once the runner stored them.
        let stored = Date().addingTimeInterval(10)
        var memo: [String: Any]?
        repeat {
            memo = try sandbox.listedMemos().first { ($0["title"] as? String) == "Budget meeting" }
            if memo?["tags"] as? [String] == ["work", "q4"], memo?["starred"] as? Bool == true { break }
            usleep(100_000)
        } while Date() < stored
        #expect(memo?["tags"] as? [String] == ["work", "q4"], "\(String(describing: memo))")
        #expect(memo?["starred"] as? Bool == true, "\(String(describing: memo))")

        try app.press("Escape")
        try app.type("/")
        try app.type("before:2026-13-45")
        try app.press("Enter")
        screen = try app.waitFor("is not a date")
        #expect(screen.contains("before:2026-13-45 is not a date"), "a wrong term says why: \(screen)")
    }
}
