import TestSupport
import Testing

@testable import Interface

/// A memo the background transcription titled from its words: the table shows the new title,
/// `u` gives the old one back as a rename's undo does, and a title given in the app meanwhile stays.
@Suite struct TitleFromWordsUpdateTests {
    static let memo = Fixtures.memo(9, "Memo 2026-12-06 17:50:31", minutesAgo: 1, seconds: 4, size: 1)

    @Test func theTableShowsTheTitleAndUGivesTheOldOneBack() {
        var state = Fixtures.state(width: 80, height: 24, memos: Fixtures.memos + [Self.memo])
        _ = reduce(&state, .transcription(.titled(memoID: 9, previousTitle: Self.memo.title, title: "Call the plumber", words: 7)))
        #expect(state.memos.first { $0.id == 9 }?.title == "Call the plumber")
        #expect(state.status?.text == "Titled “Call the plumber” from its words (was “Memo 2026-12-06 17:50:31”). Press u to undo.")
        #expect(AppView.render(state).lines().contains { $0.contains("Call the plumber") })
        let effects = reduce(&state, .key(.character("u")))
        #expect(effects == [.undoRename(id: 9, title: "Memo 2026-12-06 17:50:31", replacing: "Call the plumber")])
        #expect(state.memos.first { $0.id == 9 }?.title == "Memo 2026-12-06 17:50:31")
        #expect(state.status?.text == "Title back to “Memo 2026-12-06 17:50:31”.")
    }

    @Test func aTitleGivenInTheAppMeanwhileStays() {
        var state = Fixtures.state(width: 80, height: 24, memos: Fixtures.memos + [Self.memo])
        state.memos[state.memos.firstIndex { $0.id == 9 } ?? 0].title = "Roof"
        _ = reduce(&state, .transcription(.titled(memoID: 9, previousTitle: Self.memo.title, title: "Call the plumber", words: 7)))
        #expect(state.memos.first { $0.id == 9 }?.title == "Roof")
        #expect(state.undoStack.isEmpty, "nothing to undo")
        #expect(state.status?.text == "Transcribed “Roof”: 7 words.")
    }
}
