import TestSupport
import Testing

@testable import Interface

/// ⏎ on a memo the filter found by its words plays from the first matching word, and the
/// status line says so: a clock that starts at 00:00:06 otherwise reads as a play head that ran ahead.
@Suite struct PlayFromMatchTests {
    @Test func aMemoFoundByItsWordsSaysWherePlaybackStarts() {
        var state = Fixtures.state(width: 80, height: 24, memos: SelectionFollowsMemoTests.memos)
        _ = reduce(&state, .key(.character("/")))
        SelectionFollowsMemoTests.typed("rain", into: &state)
        let heard = TranscriptMatch(memoID: 5, time: 6.2, snippet: "… rain tomorrow …")
        _ = reduce(&state, .transcriptMatchesFound(query: "rain", [heard]))
        _ = reduce(&state, .key(.enter))
        while state.selectedMemo?.id != 5 { _ = reduce(&state, .key(.down)) }
        let effects = reduce(&state, .key(.enter))
        #expect(effects.contains { if case .play(let memo, let start) = $0 { memo.id == 5 && start == 6.2 } else { false } })
        _ = reduce(&state, .playbackStarted(memoID: 5, title: "Birthday", duration: 10, channels: 1))
        #expect(state.status?.text == "Playing “Birthday” from 00:00:06, where “rain” was said. Home plays from the start.")
    }

    @Test func aMemoPlayedFromTheStartSaysTheKeys() {
        var state = Fixtures.state(width: 80, height: 24, memos: SelectionFollowsMemoTests.memos)
        let effects = reduce(&state, .key(.enter))
        #expect(effects.contains { if case .play(_, let start) = $0 { start == 0 } else { false } })
        _ = reduce(&state, .playbackStarted(memoID: 1, title: "Shopping", duration: 10, channels: 1))
        #expect(state.status?.text == "Playing “Shopping”. Space pauses, ← → seek 5 s, s stops.")
    }
}
