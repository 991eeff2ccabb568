import TestSupport
import Testing

@testable import Interface

/// `a` cycles the memo table's order: newest first → by title → longest first → newest first;
/// the selection stays on its memo, the sorted column is marked, and the library's answers keep
/// the order.
@Suite struct MemoSortTests {
    func titles(_ state: AppState) -> [String] { state.visibleMemos.map(\.title) }

    @Test func aCyclesTheOrderAndTheSelectionStaysOnItsMemo() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(titles(state) == ["Standup notes", "Idea for the parser", "Interview with Dr. Ōtsuka", "Grocery list"])
        _ = reduce(&state, .key(.down))  // "Idea for the parser"
        #expect(reduce(&state, .key(.character("a"))) == [.saveSettings([.sortOrder(.byTitle)])], "kept for the next start")
        #expect(state.sortOrder == .byTitle)
        #expect(titles(state) == ["Grocery list", "Idea for the parser", "Interview with Dr. Ōtsuka", "Standup notes"])
        #expect(state.selectedMemo?.title == "Idea for the parser")
        #expect(state.status?.text == "Memos by title; a changes the order.")
        #expect(AppView.render(state).lines().contains { $0.hasPrefix("  Title ▲  2/4") })

        _ = reduce(&state, .key(.character("a")))
        #expect(state.sortOrder == .longestFirst)
        #expect(titles(state) == ["Interview with Dr. Ōtsuka", "Standup notes", "Idea for the parser", "Grocery list"])
        #expect(state.selectedMemo?.title == "Idea for the parser")
        #expect(AppView.render(state).lines().contains { $0.contains("Length ▼") })

        _ = reduce(&state, .key(.character("a")))
        #expect(state.sortOrder == .newestFirst)
        #expect(titles(state).first == "Standup notes")
        #expect(AppView.render(state).lines().contains { $0.contains("Date ▼") })
    }

    @Test func theLibrarysAnswersKeepTheOrder() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("a")))
        let newer = Fixtures.memo(9, "Apples", minutesAgo: 0, seconds: 3, size: 1)
        _ = reduce(&state, .libraryLoaded(memos: Fixtures.memos + [newer], deleted: []))
        #expect(titles(state) == ["Apples", "Grocery list", "Idea for the parser", "Interview with Dr. Ōtsuka", "Standup notes"])
    }

    @Test func tiesAndCaseKeepTheNewestFirst() {
        let memos = [
            Fixtures.memo(1, "b", minutesAgo: 3, seconds: 10, size: 1),
            Fixtures.memo(2, "B", minutesAgo: 2, seconds: 10, size: 1),
            Fixtures.memo(3, "a", minutesAgo: 1, seconds: 5, size: 1),
        ]
        #expect(MemoSortOrder.byTitle.sorted(memos).map(\.id) == [3, 2, 1])
        #expect(MemoSortOrder.longestFirst.sorted(memos).map(\.id) == [2, 1, 3])
        #expect(MemoSortOrder.newestFirst.sorted(memos).map(\.id) == [3, 2, 1])
        #expect(MemoSortOrder.allCases.map(\.next) == [.byTitle, .longestFirst, .newestFirst])
    }
}

/// A split's pieces are made at the same time: newest first lists (1) above (2).
@Suite struct SplitPiecesOrderTests {
    @Test func piecesOfASplitListInOrder() {
        var first = Fixtures.memo(7, "Talk (1)", minutesAgo: 5, seconds: 30, size: 1)
        var second = Fixtures.memo(8, "Talk (2)", minutesAgo: 5, seconds: 20, size: 1)
        first.created = Fixtures.now - 300
        second.created = first.created
        let memos = [
            Fixtures.memo(1, "Older", minutesAgo: 60, seconds: 10, size: 1), second, first,
            Fixtures.memo(9, "Newer", minutesAgo: 1, seconds: 10, size: 1),
        ]
        #expect(MemoSortOrder.newestFirst.sorted(memos).map(\.title) == ["Newer", "Talk (1)", "Talk (2)", "Older"])
    }
}
