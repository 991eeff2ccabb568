import TestSupport
import Testing

@testable import Interface

/// Editing by words in the transcript view: `w` `b` move a word cursor, `v` selects from it,
/// `x` cuts the words out and `K` keeps only them, each asked first, the cut in the pauses
/// around the words.
@Suite struct TranscriptWordEditTests {
    static let words = TranscriptViewTests.words

    static func press(_ text: String, _ state: inout AppState) -> [Effect] {
        text.flatMap { reduce(&state, .key(.character($0))) }
    }

    @Test func theCursorStartsAtTheTopAndMovesWordByWord() {
        var state = TranscriptViewTests.viewing()
        _ = Self.press("w", &state)
        #expect(state.transcriptView?.cursor == 0, "the first press puts it on the top line's first word")
        _ = Self.press("www", &state)
        #expect(state.transcriptView?.cursor == 3)
        _ = Self.press("b", &state)
        #expect(state.transcriptView?.cursor == 2)
        _ = Self.press("bbbbb", &state)
        #expect(state.transcriptView?.cursor == 0, "never before the first word")
        // Far down: the view scrolls to keep the cursor in sight.
        for _ in 0..<150 { _ = Self.press("w", &state) }
        let lines = TranscriptLayout.lines(Self.words, width: 80)
        let line = lines.firstIndex { $0.words.contains(150) } ?? -1
        let top = TranscriptLayout.top(state)
        #expect(line >= top && line < top + TranscriptLayout.rows(in: state.layout.body))
        #expect(AppView.render(state).lines().contains { $0.contains("word150") })
    }

    @Test func threeSelectedWordsAreCutAtThePausesAroundThemAfterAYes() {
        var state = TranscriptViewTests.viewing()
        _ = Self.press("wwwww", &state)  // on word4
        _ = Self.press("v", &state)
        _ = Self.press("ww", &state)  // word4 … word6
        #expect(state.transcriptView?.selection == 4...6)
        #expect(state.status?.text.hasPrefix("3 words selected") == true)
        let screen = AppView.render(state)
        #expect(screen.lines().joined().contains("word4 word5 word6"))
        _ = Self.press("x", &state)
        let span = WordSpan(
            pauseBefore: Self.words[3].end...Self.words[4].start, pauseAfter: Self.words[6].end...Self.words[7].start,
            count: 3, text: "word4 word5 word6")
        #expect(state.mode == .confirmingEdit(.cutWords(memoID: 1, title: "Standup notes", span: span)))
        #expect(AppView.render(state).lines().joined().contains("Cut 3 words (“word4 word5 word6”) out of “Standup notes”?"))
        let effects = Self.press("y", &state)
        #expect(effects.contains(.editMemo(.cutWords(memoID: 1, title: "Standup notes", span: span))))
        #expect(state.mode == .browsing && state.transcriptView == nil, "the table, where the new memo is selected")
    }

    @Test func noGoesBackToTheViewWithTheSelectionAsItWas() {
        var state = TranscriptViewTests.viewing()
        _ = Self.press("wwvw", &state)
        _ = Self.press("K", &state)
        guard case .confirmingEdit(.keepWords(_, _, let span)) = state.mode else {
            Issue.record("K asks to keep the words: \(state.mode)")
            return
        }
        #expect(span.count == 2 && span.text == "word1 word2")
        _ = Self.press("n", &state)
        #expect(state.mode == .transcript && state.transcriptView?.selection == 1...2)
        #expect(state.status?.text == "Not changed.")
    }

    @Test func theFirstAndLastWordsCutToTheMemosEnds() {
        var state = TranscriptViewTests.viewing()
        _ = Self.press("wx", &state)
        guard case .confirmingEdit(.cutWords(_, _, let first)) = state.mode else {
            Issue.record("x with the cursor alone cuts its word: \(state.mode)")
            return
        }
        #expect(first.pauseBefore == 0...0 && first.count == 1, "nothing before the first word: from the start")
        _ = Self.press("n", &state)
        for _ in 0..<220 { _ = Self.press("w", &state) }
        _ = Self.press("x", &state)
        guard case .confirmingEdit(.cutWords(_, _, let last)) = state.mode else {
            Issue.record("x on the last word: \(state.mode)")
            return
        }
        let end = Self.words[199].end
        #expect(last.pauseAfter == end...end, "the memo (131 s in the fixture) ends before its last word's end: the word's end")
    }

    @Test func nothingChosenOrEverythingChosenIsRefusedSayingWhy() {
        var state = TranscriptViewTests.viewing()
        _ = Self.press("x", &state)
        #expect(state.mode == .transcript)
        #expect(state.status?.text.hasPrefix("No words chosen: w b move the word cursor") == true)
        _ = Self.press("wv", &state)
        for _ in 0..<220 { _ = Self.press("w", &state) }
        _ = Self.press("x", &state)
        #expect(state.mode == .transcript)
        #expect(state.status?.text.hasPrefix("Those are all of its words: nothing would be left.") == true)
        _ = Self.press("K", &state)
        #expect(state.status?.text.hasPrefix("Those are all of its words: nothing to trim away.") == true)
        _ = Self.press("v", &state)
        #expect(state.transcriptView?.selection == nil && state.status?.text == "Selection let go.")
    }

    @Test func aViewWithoutWordsSaysThereIsNothingToEdit() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("T")))
        _ = reduce(&state, .transcriptLoaded(memoID: 1, .missing))
        for key in "wvxK" { _ = reduce(&state, .key(.character(key))) }
        #expect(state.mode == .transcript)
        #expect(state.status?.text.hasPrefix("No words chosen") == true || state.status?.text.hasPrefix("No words here") == true)
    }
}
