import TestSupport
import Testing

@testable import Interface

/// The `/` filter's terms: read by `MemoQuery`, combined (AND) with plain words; a wrong
/// term says why instead of matching nothing in silence.
@Suite struct MemoQueryTests {
    @Test func termsAndWordsAreRead() {
        let query = MemoQuery("budget tag:Work is:starred said:forecast before:2026-12-01 after:2026-11-01 longer:5m shorter:1h30m")
        #expect(query.words == ["budget"])
        #expect(query.tags == ["work"])
        #expect(query.starredOnly)
        #expect(query.said == ["forecast"])
        #expect(query.beforeDay == CivilTime.dayNumber(year: 2026, month: 12, day: 1))
        #expect(query.fromDay == CivilTime.dayNumber(year: 2026, month: 11, day: 1))
        #expect(query.longerThan == 300)
        #expect(query.shorterThan == 5400)
        #expect(query.problem == nil)
        #expect(query.spokenText == "forecast budget")
    }

    @Test func aWordWithAnUnknownKeyIsAPlainWord() {
        #expect(MemoQuery("re:budget").words == ["re:budget"])
        #expect(MemoQuery("").isEmpty)
        #expect(MemoQuery("plain words").plainText == "plain words")
    }

    @Test(arguments: [
        ("before:2026-13-45", "before:2026-13-45 is not a date"),
        ("after:2026-02-30", "after:2026-02-30 is not a date"),
        ("before:yesterday", "before:yesterday is not a date"),
        ("longer:soon", "longer:soon is not a length"),
        ("shorter:5m5m", "shorter:5m5m is not a length"),
        ("tag:", "a tag cannot be empty"),
        ("is:loud", "only is:starred"),
        ("said:", "said: needs a word"),
    ])
    func aWrongTermSaysWhy(text: String, why: String) {
        let query = MemoQuery("budget " + text)
        #expect(query.problem?.contains(why) == true, "\(query.problem ?? "none")")
    }

    @Test func lengthsAndDates() {
        #expect(MemoQuery.seconds("90") == 90)
        #expect(MemoQuery.seconds("90s") == 90)
        #expect(MemoQuery.seconds("1.5h") == 5400)
        #expect(MemoQuery.seconds("1h30m") == 5400)
        #expect(MemoQuery.seconds("30m1h") == nil)
        #expect(MemoQuery.seconds("m") == nil)
        #expect(MemoQuery.seconds("") == nil)
        #expect(MemoQuery.day("2024-02-29") != nil)
        #expect(MemoQuery.day("2026-02-29") == nil)
        #expect(MemoQuery.day("2026-1-01") == nil)
    }

    static func memos() -> [MemoRow] {
        var standup = Fixtures.memo(1, "Standup notes", minutesAgo: 2, seconds: 131, size: 1000)
        standup.tags = ["work"]
        standup.isStarred = true
        var parser = Fixtures.memo(2, "Idea for the parser", minutesAgo: 60 * 24 * 3, seconds: 37, size: 1000)
        parser.tags = ["work", "idea"]
        let interview = Fixtures.memo(3, "Interview", minutesAgo: 60 * 24 * 40, seconds: 3725, size: 1000)
        return [standup, parser, interview]
    }

    /// The table lists what every term and word allows (the fixed clock is 2026-11-29 14:05 UTC).
    @Test(arguments: [
        ("tag:work", [1, 2]),
        ("tag:work tag:idea", [2]),
        ("is:starred", [1]),
        ("tag:work parser", [2]),
        ("before:2026-11-29", [2, 3]),
        ("after:2026-11-29", [1]),
        ("after:2026-11-01 before:2026-11-29", [2]),
        ("longer:1m", [1, 3]),
        ("shorter:1m", [2]),
        ("longer:1h", [3]),
        ("TAG:WORK IS:STARRED", [1]),
        ("before:2026-13-45", []),
    ])
    func theTableListsWhatTheFilterAllows(filter: String, ids: [Int64]) {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.memos())
        _ = reduce(&state, .key(.character("/")))
        for character in filter { _ = reduce(&state, .key(.character(character))) }
        #expect(state.visibleMemos.map(\.id) == ids, "\(filter)")
    }

    @Test func aWrongTermIsSaidOnTheStatusLine() {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.memos())
        _ = reduce(&state, .key(.character("/")))
        for character in "before:2026-13-45" { _ = reduce(&state, .key(.character(character))) }
        let lines = AppView.render(state).lines().joined(separator: "\n")
        #expect(lines.contains("Nothing is listed: before:2026-13-45 is not a date"), "\(lines)")
        _ = reduce(&state, .key(.enter))
        #expect(state.statusLine?.text.contains("before:2026-13-45 is not a date") == true)
    }

    @Test func saidSearchesTheTranscriptsOnlyForTheSpokenWords() {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.memos())
        _ = reduce(&state, .key(.character("/")))
        var effects: [Effect] = []
        for character in "tag:work said:budget" { effects = reduce(&state, .key(.character(character))) }
        #expect(effects == [.searchTranscripts(query: "budget")])
        #expect(state.visibleMemos.isEmpty, "no transcript matched yet")
        _ = reduce(&state, .transcriptMatchesFound(query: "budget", [
            TranscriptMatch(memoID: 2, time: 3, snippet: "the budget"), TranscriptMatch(memoID: 3, time: 1, snippet: "budget"),
        ]))
        #expect(state.visibleMemos.map(\.id) == [2], "said: and tag: both hold")
    }

    @Test func aNewTranscriptIsSearchedForTheSpokenWordsOnly() {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.memos())
        _ = reduce(&state, .key(.character("/")))
        for character in "tag:work said:budget" { _ = reduce(&state, .key(.character(character))) }
        _ = reduce(&state, .key(.enter))
        let effects = reduce(&state, .transcription(.finished(memoID: 2, title: "Idea for the parser", words: 12)))
        #expect(effects.contains(.searchTranscripts(query: "budget")), "\(effects)")
        #expect(!effects.contains(.searchTranscripts(query: "tag:work said:budget")), "\(effects)")
    }
}
