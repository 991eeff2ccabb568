import TestSupport
import Testing

@testable import Interface

/// The help screen lists every key wherever it is drawn: it scrolls when they do not fit.
@Suite struct HelpScreenTests {
    /// Every key the help lists, as drawn on the screen at one scroll position.
    private func shownKeys(_ state: AppState) -> [String] {
        let text = AppView.render(state).lines()
        let width = HelpLayout(state).textWidth
        return KeyHelp.all.map(\.1).filter { description in
            // Its first line: a long description wraps.
            let first = HelpLayout.wrap(description, toWidth: width).first ?? description
            return text.contains { $0.contains(String(first.prefix(12))) }
        }
    }

    @Test(arguments: [(80, 24), (40, 12), (30, 8), (120, 40), (200, 50)])
    func everyKeyCanBeReachedByScrolling(width: Int, height: Int) {
        var state = Fixtures.state(width: width, height: height, [.key(.character("?"))])
        #expect(state.mode == .help)
        var seen = Set(shownKeys(state))
        for _ in 0..<(HelpLayout(state).scrolls ? HelpLayout(state).rowCount : 0) {
            _ = reduce(&state, .key(.down))
            #expect(state.mode == .help, "scrolling keeps help open")
            seen.formUnion(shownKeys(state))
        }
        let help = HelpLayout(state)
        if help.visibleRows > 0 {
            #expect(seen == Set(KeyHelp.all.map(\.1)), "at \(width)×\(height) unseen: \(Set(KeyHelp.all.map(\.1)).subtracting(seen))")
        }
        #expect(state.helpScroll <= help.maximumScroll, "scrolling stops at the end")
    }

    @Test func aScreenThatFitsEverythingClosesOnAnyKey() throws {
        // The smallest 200-column screen the whole help fits on (50 rows hold it today; a new key
        // may need one more), so that a new key never breaks this test.
        let height = try #require((50...400).first { height in
            !HelpLayout(Fixtures.state(width: 200, height: height, [.key(.character("?"))])).scrolls
        }, "the help fits no screen up to 400 rows")
        var state = Fixtures.state(width: 200, height: height, [.key(.character("?"))])
        _ = reduce(&state, .key(.down))
        #expect(state.mode == .browsing, "nothing to scroll: ↓ closes as any key does")
        #expect(!AppView.render(Fixtures.state(width: 200, height: height, [.key(.character("?"))])).lines().joined().contains("scroll"))
    }

    @Test func aSmallScreenSaysItScrollsAndWhere() {
        var state = Fixtures.state(width: 40, height: 12, [.key(.character("?"))])
        let help = HelpLayout(state)
        #expect(help.scrolls)
        var text = AppView.render(state).lines().joined(separator: "\n")
        #expect(text.contains("1–\(help.visibleRows) of \(help.rowCount) (↑↓ scroll)"), "\(text)")
        #expect(text.contains("scroll"), "the footer names the scrolling keys: \(text)")
        _ = reduce(&state, .key(.end))
        text = AppView.render(state).lines().joined(separator: "\n")
        #expect(text.contains("of \(help.rowCount)"))
        #expect(text.contains(String(KeyHelp.all.last!.1.prefix(10))), "End shows the last key: \(text)")
        _ = reduce(&state, .key(.home))
        #expect(state.helpScroll == 0)
        _ = reduce(&state, .key(.character("x")))
        #expect(state.mode == .browsing, "any other key closes")
        _ = reduce(&state, .key(.character("?")))
        #expect(state.helpScroll == 0, "help opens at its top again")
    }
}

/// The way to the keys is always on screen.
@Suite struct FooterTests {
    @Test(arguments: [200, 80, 40, 20, 12])
    func helpIsInTheFooterAtEveryWidth(width: Int) {
        let state = Fixtures.state(width: width, height: 24)
        let footer = AppView.render(state).lines().last ?? ""
        #expect(footer.contains("? help"), "\(width) columns: \(footer)")
        if width >= 40 {
            #expect(footer.contains("⏎ play"), "\(footer)")
        }
        if width >= 80 {
            #expect(footer.contains("v voice"), "\(footer)")
        }
    }

    @Test func recentlyDeletedShowsRestoreOnEnterAndHelp() {
        let state = Fixtures.state(width: 80, height: 24, [.key(.character("t"))])
        let footer = AppView.render(state).lines().last ?? ""
        #expect(footer.contains("⏎ restore") && footer.contains("? help"), "\(footer)")
    }

    @Test func aKeyThatDoesNothingSaysWhereTheKeysAre() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("W"))) == [])
        #expect(state.statusLine?.text == "“W” does nothing here. Press ? for the keys.")
    }
}

/// Recently Deleted says how long each memo has before it is purged.
@Suite struct RecentlyDeletedPurgeTests {
    @Test func daysLeftAreRoundedUpAndShownInTheList() {
        var deleted = Fixtures.memo(5, "Old idea", minutesAgo: 60 * 24 * 40, seconds: 12, size: 4000)
        deleted.deletedAt = Fixtures.now - 86_400 * 3 - 60
        #expect(deleted.daysUntilPurge(now: Fixtures.now) == 27)
        #expect(deleted.purgeText(now: Fixtures.now) == "27 days left")
        #expect(deleted.purgeText(now: Fixtures.now + 86_400 * 26.5) == "1 day left")
        #expect(deleted.purgeText(now: Fixtures.now + 86_400 * 40) == "due")
        #expect(Fixtures.memo(6, "Kept", minutesAgo: 1, seconds: 1, size: 1).daysUntilPurge(now: Fixtures.now) == nil)
        var state = Fixtures.state(width: 80, height: 24, [.key(.character("t"))])
        state.deletedMemos = [deleted]
        let text = AppView.render(state).lines().joined(separator: "\n")
        #expect(text.contains("27 days left"), "\(text)")
        state.width = 50
        #expect(!AppView.render(state).lines().joined().contains("days left"), "a narrow list keeps the title's room")
    }
}
