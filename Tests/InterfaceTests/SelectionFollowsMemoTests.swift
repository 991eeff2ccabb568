import TestSupport
import Testing

@testable import Interface

/// The table's selection is on a memo, not on a row number: it follows that memo (by id)
/// across filter changes, Esc, reloads, restores and edits, and falls to a neighbour only
/// when the memo is gone.
@Suite struct SelectionFollowsMemoTests {
    /// Seven memos, newest first; three have “train” in their titles (ids 2, 4 and 6).
    static let memos: [Interface.MemoRow] = [
        Fixtures.memo(1, "Shopping", minutesAgo: 1, seconds: 10, size: 1_000),
        Fixtures.memo(2, "Train times", minutesAgo: 2, seconds: 10, size: 1_000),
        Fixtures.memo(3, "Dentist", minutesAgo: 3, seconds: 10, size: 1_000),
        Fixtures.memo(4, "Training plan", minutesAgo: 4, seconds: 10, size: 1_000),
        Fixtures.memo(5, "Birthday", minutesAgo: 5, seconds: 10, size: 1_000),
        Fixtures.memo(6, "Night train", minutesAgo: 6, seconds: 10, size: 1_000),
        Fixtures.memo(7, "Budget", minutesAgo: 7, seconds: 10, size: 1_000),
    ]

    static func typed(_ text: String, into state: inout AppState) {
        for character in text { _ = reduce(&state, .key(.character(character))) }
    }

    @Test func escapeKeepsTheMemoSelectedInTheFilter() {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.memos)
        _ = reduce(&state, .key(.character("/")))
        Self.typed("train", into: &state)
        #expect(state.visibleMemos.map(\.id) == [2, 4, 6])
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.down))
        #expect(state.selectedMemo?.id == 6)
        _ = reduce(&state, .key(.escape))
        #expect(state.filter.isEmpty)
        #expect(state.selectedMemo?.id == 6, "Esc clears the filter, the selection stays on “Night train”")

        // Esc in the prompt itself, too.
        _ = reduce(&state, .key(.character("/")))
        Self.typed("train", into: &state)
        _ = reduce(&state, .key(.up))
        #expect(state.selectedMemo?.id == 4)
        _ = reduce(&state, .key(.escape))
        #expect(state.selectedMemo?.id == 4)
    }

    @Test func typingTheFilterKeepsTheSelectedMemoWhileItStillMatches() {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.memos)
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.down))
        #expect(state.selectedMemo?.id == 4)
        _ = reduce(&state, .key(.character("/")))
        Self.typed("train", into: &state)
        #expect(state.selectedMemo?.id == 4, "“Training plan” matches: it stays selected")
        Self.typed("i", into: &state)
        #expect(state.selectedMemo?.id == 4)
        _ = reduce(&state, .key(.escape))
        #expect(state.selectedMemo?.id == 4)
    }

    /// A memo found by its words is hidden for a moment while the next letter's search runs;
    /// when the answer finds it again, it is selected again.
    @Test func aMemoFoundByItsWordsStaysSelectedWhileTheSearchCatchesUp() {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.memos)
        _ = reduce(&state, .key(.character("/")))
        Self.typed("rai", into: &state)
        let heard = TranscriptMatch(memoID: 5, time: 3, snippet: "… rain tomorrow …")
        _ = reduce(&state, .transcriptMatchesFound(query: "rai", [heard]))
        #expect(state.visibleMemos.map(\.id) == [2, 4, 5, 6])
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.down))
        #expect(state.selectedMemo?.id == 5)
        Self.typed("n", into: &state)
        _ = reduce(&state, .transcriptMatchesFound(query: "rain", [heard]))
        #expect(state.selectedMemo?.id == 5)
    }

    @Test func aReloadKeepsTheMemoAndFallsToItsNeighbourWhenItIsGone() {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.memos)
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.down))
        #expect(state.selectedMemo?.id == 3)
        let newer = Fixtures.memo(8, "Newest", minutesAgo: 0, seconds: 5, size: 1_000)
        _ = reduce(&state, .libraryLoaded(memos: [newer] + Self.memos, deleted: []))
        #expect(state.selectedMemo?.id == 3, "a memo added above does not move the selection off “Dentist”")
        // Deleted elsewhere, with another memo added at the top: the one after it is selected.
        let newest = Fixtures.memo(9, "Newer still", minutesAgo: 0, seconds: 5, size: 1_000)
        _ = reduce(&state, .libraryLoaded(memos: [newest, newer] + Self.memos.filter { $0.id != 3 }, deleted: []))
        #expect(state.selectedMemo?.id == 4)
        // The last memo gone: the one before it.
        _ = reduce(&state, .key(.end))
        #expect(state.selectedMemo?.id == 7)
        _ = reduce(&state, .libraryLoaded(memos: [newest, newer] + Self.memos.filter { $0.id != 3 && $0.id != 7 }, deleted: []))
        #expect(state.selectedMemo?.id == 6)
    }

    @Test func restoringFromRecentlyDeletedKeepsTheTablesSelection() {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.memos)
        var deleted = Fixtures.memo(8, "Newest", minutesAgo: 0, seconds: 5, size: 1_000)
        deleted.deletedAt = Fixtures.now
        _ = reduce(&state, .libraryLoaded(memos: Self.memos, deleted: [deleted]))
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.down))
        #expect(state.selectedMemo?.id == 3)
        _ = reduce(&state, .key(.character("t")))
        #expect(reduce(&state, .key(.enter)) == [.restoreMemo(id: 8)])
        _ = reduce(&state, .key(.escape))
        #expect(state.selectedMemo?.id == 3)
    }

    /// `Z` on a memo the filter found by its words: the memo it makes replaces it in the
    /// filtered table, selected, so the next key acts on it.
    @Test func anEditInsideTheFilterSelectsItsReplacement() {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.memos)
        _ = reduce(&state, .key(.character("/")))
        Self.typed("platform", into: &state)
        let matches = [3, 5, 7].map { TranscriptMatch(memoID: $0, time: 4, snippet: "… platform nine …") }
        _ = reduce(&state, .transcriptMatchesFound(query: "platform", matches))
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .key(.end))
        #expect(state.selectedMemo?.id == 7)
        _ = reduce(&state, .key(.character("Z")))
        let request = EditRequest.removeSilences(memoID: 7, title: "Budget")
        #expect(reduce(&state, .key(.character("y"))) == [.editMemo(request)])
        let made = Fixtures.memo(100, "Budget", minutesAgo: 7, seconds: 8, size: 900)
        let effects = reduce(&state, .memoEdited(EditOutcome(
            request: request, originalID: 7, title: "Budget", originalDuration: 10, made: [made], reencoded: false)))
        #expect(state.visibleMemos.map(\.id) == [3, 5, 100])
        #expect(state.selectedMemo?.id == 100)
        // The library moved the words to the new memo: the search is asked again.
        #expect(effects == [.searchTranscripts(query: "platform")])
        _ = reduce(&state, .transcriptMatchesFound(query: "platform", [3, 5, 100].map {
            TranscriptMatch(memoID: $0, time: 3, snippet: "… platform nine …")
        }))
        #expect(state.selectedMemo?.id == 100)
        _ = reduce(&state, .libraryLoaded(memos: Self.memos.filter { $0.id != 7 } + [made], deleted: []))
        #expect(state.selectedMemo?.id == 100)
    }

    @Test func deletingSelectsTheNextMemoAndTheLastSelectsTheOneBefore() {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.memos)
        _ = reduce(&state, .key(.down))
        #expect(reduce(&state, .key(.character("d"))) == [.deleteMemo(id: 2)])
        #expect(state.selectedMemo?.id == 3)
        _ = reduce(&state, .key(.end))
        #expect(reduce(&state, .key(.character("d"))) == [.deleteMemo(id: 7)])
        #expect(state.selectedMemo?.id == 6)
    }

    /// `u` after an edit brings the original back in place of what the edit made: the original
    /// is selected at once, and stays so when the library answers.
    @Test func undoingAnEditSelectsTheOriginal() {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.memos)
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.character("Z")))
        let request = EditRequest.removeSilences(memoID: 2, title: "Train times")
        #expect(reduce(&state, .key(.character("y"))) == [.editMemo(request)])
        let made = Fixtures.memo(100, "Train times", minutesAgo: 2, seconds: 8, size: 900)
        _ = reduce(&state, .memoEdited(EditOutcome(
            request: request, originalID: 2, title: "Train times", originalDuration: 10, made: [made], reencoded: false)))
        var original = Self.memos[1]
        original.deletedAt = Fixtures.now
        _ = reduce(&state, .libraryLoaded(memos: Self.memos.filter { $0.id != 2 } + [made], deleted: [original]))
        #expect(state.selectedMemo?.id == 100)
        #expect(reduce(&state, .key(.character("u"))) == [.undoEdit(originalID: 2, madeIDs: [100])])
        #expect(state.selectedMemo?.id == 2, "the original, back")
        #expect(!state.memos.contains { $0.id == 100 })
        var undone = made
        undone.deletedAt = Fixtures.now
        _ = reduce(&state, .libraryLoaded(memos: Self.memos, deleted: [undone]))
        #expect(state.selectedMemo?.id == 2)
    }
}
