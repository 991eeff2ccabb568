import TestSupport
import Testing

@testable import Interface

/// `*` stars the selected memo, `#` edits its tags, `u` takes either back; the table shows
/// ★ and the tags, and never overflows.
@Suite struct TagKeysTests {
    static func typing(_ text: String, _ state: inout AppState) -> [Effect] {
        var effects: [Effect] = []
        for character in text { effects = reduce(&state, .key(.character(character))) }
        return effects
    }

    @Test func starToggleIsShownAtOnceAndUndone() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("*"))) == [.setMemoTags(id: 1, tags: [], starred: true)])
        #expect(state.memos.first { $0.id == 1 }?.isStarred == true)
        #expect(state.statusLine?.text.contains("Starred “Standup notes”") == true)
        #expect(reduce(&state, .key(.character("*"))) == [.setMemoTags(id: 1, tags: [], starred: false)])
        #expect(reduce(&state, .key(.character("u"))) == [.setMemoTags(id: 1, tags: [], starred: true)])
        #expect(reduce(&state, .key(.character("u"))) == [.setMemoTags(id: 1, tags: [], starred: false)])
        #expect(state.memos.first { $0.id == 1 }?.isStarred == false)
    }

    @Test func theTagsPromptAddsRemovesAndReplaces() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("#")))
        #expect(state.mode == .tagging(id: 1, field: TextField("")))
        _ = Self.typing("+Work +draft", &state)
        #expect(reduce(&state, .key(.enter)) == [.setMemoTags(id: 1, tags: ["work", "draft"], starred: false)])
        #expect(state.mode == .browsing)
        #expect(state.memos.first { $0.id == 1 }?.tags == ["work", "draft"])

        _ = reduce(&state, .key(.character("#")))
        #expect(state.mode == .tagging(id: 1, field: TextField("work draft")), "the prompt holds the tags")
        for _ in 0..<"work draft".count { _ = reduce(&state, .key(.backspace)) }
        _ = Self.typing("idea urgent", &state)
        #expect(reduce(&state, .key(.enter)) == [.setMemoTags(id: 1, tags: ["idea", "urgent"], starred: false)], "a plain list replaces")

        #expect(reduce(&state, .key(.character("u"))) == [.setMemoTags(id: 1, tags: ["work", "draft"], starred: false)])
        #expect(state.memos.first { $0.id == 1 }?.tags == ["work", "draft"])
    }

    @Test func aRefusedTagKeepsThePromptOpenSayingWhy() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("#")))
        _ = Self.typing("+" + String(repeating: "x", count: 65), &state)
        #expect(reduce(&state, .key(.enter)) == [])
        #expect(state.promptProblem?.contains("at most 64") == true)
        guard case .tagging = state.mode else {
            Issue.record("the prompt closed: \(state.mode)")
            return
        }
        _ = reduce(&state, .key(.escape))
        #expect(state.mode == .browsing)
        #expect(state.memos.first { $0.id == 1 }?.tags == [])
    }

    @Test func emptyingThePromptTakesEveryTagAway() {
        var memos = Fixtures.memos
        memos[0].tags = ["work"]
        var state = Fixtures.state(width: 80, height: 24, memos: memos)
        _ = reduce(&state, .key(.character("#")))
        for _ in 0..<4 { _ = reduce(&state, .key(.backspace)) }
        #expect(reduce(&state, .key(.enter)) == [.setMemoTags(id: 1, tags: [], starred: false)])
    }

    @Test func bothKeysAreInTheHelp() {
        var state = Fixtures.state(width: 160, height: 60)
        _ = reduce(&state, .key(.character("?")))
        let help = AppView.render(state).lines().joined(separator: "\n")
        #expect(help.contains("star / unstar the selected memo"), "\(help)")
        #expect(help.contains("tags of the selected memo"), "\(help)")
        let wide = AppView.render(Fixtures.state(width: 200, height: 40)).lines().joined(separator: "\n")
        #expect(wide.contains("star") && wide.contains("tags"), "the footer names them where there is room")
    }

    static func taggedMemos() -> [MemoRow] {
        var memos = Fixtures.memos
        memos[0].isStarred = true
        memos[0].tags = ["work", "standup"]
        memos[1].tags = ["idea", "parser", "compilers", "someday", "maybe-never"]
        memos[2].isStarred = true
        memos[2].state = .damaged
        memos[2].tags = ["interview"]
        return memos
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func theTableShowsStarsAndTags(width: Int, height: Int) {
        let state = Fixtures.state(width: width, height: height, memos: Self.taggedMemos())
        assertSnapshot(AppView.render(state), named: "starred-and-tagged-\(width)x\(height)")
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.contains("★ Standup notes") && $0.contains("#work #standup") }, "\(lines)")
        #expect(lines.contains { $0.contains("[damaged]") && $0.contains("#interview") }, "\(lines)")
    }

    @Test func theFilterByTagIsShownAt80Columns() {
        var state = Fixtures.state(width: 80, height: 24, memos: Self.taggedMemos())
        _ = reduce(&state, .key(.character("/")))
        _ = Self.typing("tag:work", &state)
        _ = reduce(&state, .key(.enter))
        assertSnapshot(AppView.render(state), named: "filter-tag-80x24")
        #expect(state.visibleMemos.map(\.id) == [1])
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func theTagsPromptAndAWrongTermOnScreen(width: Int, height: Int) {
        var state = Fixtures.state(width: width, height: height, memos: Self.taggedMemos())
        _ = reduce(&state, .key(.character("#")))
        _ = Self.typing(" +urgent", &state)
        assertSnapshot(AppView.render(state), named: "tags-prompt-\(width)x\(height)")
        _ = reduce(&state, .key(.escape))
        _ = reduce(&state, .key(.character("/")))
        _ = Self.typing("tag:work before:2026-13-45", &state)
        _ = reduce(&state, .key(.enter))
        assertSnapshot(AppView.render(state), named: "filter-wrong-date-\(width)x\(height)")
    }

    @Test func theDetailsShowTheStarAndTheTags() {
        let memos = Self.taggedMemos()
        let state = Fixtures.state(width: 80, height: 24, memos: memos)
        let tagged = MemoDetailsView.lines(memos[0], state: state)
        #expect(tagged.first { $0.label == "Tags" }?.value == "★ starred   #work #standup")
        #expect(tagged.map(\.label).prefix(2) == ["Title", "Tags"])
        #expect(!MemoDetailsView.lines(memos[3], state: state).contains { $0.label == "Tags" }, "none: no line")
    }

    @Test func theTitleCellNeverOverflows() {
        for memo in Self.taggedMemos() {
            for width in 0...130 {
                let text = MemoTableView.titleText(memo, width: width)
                #expect(DisplayWidth.of(text) == max(width, 0), "\(memo.title) at \(width): “\(text)”")
            }
        }
        for (width, height) in [(1, 1), (12, 6), (30, 10), (44, 12)] {
            let screen = AppView.render(Fixtures.state(width: width, height: height, memos: Self.taggedMemos()))
            #expect(screen.lines().allSatisfy { DisplayWidth.of($0) <= width })
        }
    }
}
