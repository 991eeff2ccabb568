import TestSupport
import Vocabulary
import Testing

@testable import Interface

/// Recently Deleted (`t`): each memo says why it is there and when it went, beside its title,
/// length and size, the columns dropped in order of importance as the width shrinks.
@Suite struct RecentlyDeletedViewTests {
    /// After a trim, its undo and a remove-pauses of "Standup notes", and a delete of another
    /// memo yesterday and one weeks ago (from before reasons were kept).
    static func deleted() -> [MemoRow] {
        func row(_ id: Int64, _ memo: MemoRow, seconds: Double, minutesAgo: Double, _ reason: DeletionReason?) -> MemoRow {
            var row = memo
            row.id = id
            row.duration = seconds
            row.deletedAt = Fixtures.now - minutesAgo * 60
            row.deletionReason = reason
            return row
        }
        let standup = Fixtures.memos[0]
        return [
            row(21, standup, seconds: 98, minutesAgo: 1, .replaced(by: .removePauses)),
            row(22, standup, seconds: 120, minutesAgo: 3, .undone(.trim)),
            row(23, standup, seconds: 131, minutesAgo: 4, .replaced(by: .trim)),
            row(24, Fixtures.memos[1], seconds: 37, minutesAgo: 60 * 20, .deleted),
            row(25, Fixtures.memos[3], seconds: 12, minutesAgo: 60 * 24 * 12, nil),
        ]
    }

    static func showing(width: Int, height: Int) -> AppState {
        var state = Fixtures.state(width: width, height: height)
        _ = reduce(&state, .libraryLoaded(memos: Fixtures.memos, deleted: deleted()))
        _ = reduce(&state, .key(.character("t")))
        return state
    }

    @Test func eachRowSaysWhyAndWhen() {
        let state = Self.showing(width: 80, height: 24)
        #expect(state.mode == .recentlyDeleted)
        let lines = AppView.render(state).lines()
        func row(_ text: String) -> String { lines.first { $0.contains(text) } ?? "" }
        #expect(row("before removing pauses").contains("14:04"), "today: the time alone: \(lines)")
        #expect(row("undone trim").contains("Standup notes") && row("undone trim").contains("14:02"))
        #expect(row("before trim").contains("00:02:11"), "the length still shows: \(lines)")
        #expect(row("Idea for the").contains("deleted") && row("Idea for the").contains("Yesterday 18:05"), "\(lines)")
        #expect(row("Grocery list").contains("deleted                 2026-11-17 14:05"), "no reason kept: plain deleted, with its date: \(lines)")
        let wide = AppView.render(Self.showing(width: 120, height: 40)).lines()
        #expect(wide.contains { $0.contains("Grocery list") && $0.contains("18 days left") }, "days left where they fit: \(wide)")
    }

    @Test func narrowerScreensDropTheLeastNeededColumnsFirst() {
        let lines = AppView.render(Self.showing(width: 60, height: 20)).lines()
        let row = lines.first { $0.contains("before removing pauses") } ?? ""
        #expect(row.contains("Standup notes") && row.contains("14:04"), "why and when kept at 60: \(lines)")
        #expect(!row.contains("days left"))
        let narrow = AppView.render(Self.showing(width: 40, height: 12)).lines()
        #expect(narrow.contains { $0.contains("Standup notes") && $0.contains("before trim") }, "\(narrow)")
    }

    @Test func snapshots() {
        for (width, height) in [(80, 24), (60, 20), (120, 40), (40, 12), (1, 1)] {
            assertSnapshot(AppView.render(Self.showing(width: width, height: height)), named: "recently-deleted-\(width)x\(height)")
        }
    }

    @Test func detailsOfADeletedMemoSayWhy() {
        let memo = Self.deleted()[0]
        let state = Self.showing(width: 80, height: 24)
        let lines = MemoDetailsView.lines(memo, state: state)
        #expect(lines.first { $0.label == "Why" }?.value == "before removing pauses: the memo without pauses replaced it")
        #expect(MemoDetailsView.lines(Self.deleted()[4], state: state).first { $0.label == "Why" }?.value == "deleted")
    }
}
