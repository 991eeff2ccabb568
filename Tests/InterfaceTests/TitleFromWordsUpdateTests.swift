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

    @Test func theTitlePromptStillOfferingTheOldTitleOffersTheNewOne() {
        var state = Fixtures.state(width: 80, height: 24, memos: Fixtures.memos + [Self.memo])
        state.openTitlePrompt(id: 9, title: Self.memo.title, afterStop: true)
        _ = reduce(&state, .transcription(.titled(memoID: 9, previousTitle: Self.memo.title, title: "Call the plumber", words: 7)))
        guard case .renaming(9, let field) = state.mode else {
            Issue.record("the prompt stays open: \(state.mode)")
            return
        }
        #expect(field.text == "Call the plumber" && field.isSelected, "typing still replaces it")
        #expect(reduce(&state, .key(.enter)).isEmpty, "⏎ keeps the title from the words")
        #expect(state.memos.first { $0.id == 9 }?.title == "Call the plumber")

        // Once typed into, the prompt is the person's.
        var typing = Fixtures.state(width: 80, height: 24, memos: Fixtures.memos + [Self.memo])
        typing.openTitlePrompt(id: 9, title: Self.memo.title, afterStop: true)
        _ = reduce(&typing, .key(.character("R")))
        _ = reduce(&typing, .transcription(.titled(memoID: 9, previousTitle: Self.memo.title, title: "Call the plumber", words: 7)))
        guard case .renaming(9, let typed) = typing.mode else {
            Issue.record("the prompt stays open: \(typing.mode)")
            return
        }
        #expect(typed.text == "R")
        _ = reduce(&typing, .key(.enter))
        #expect(typing.memos.first { $0.id == 9 }?.title == "R", "the typed title wins")
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
