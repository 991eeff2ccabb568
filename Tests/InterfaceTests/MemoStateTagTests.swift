import TestSupport
import Testing

@testable import Interface

/// The app shows which memos are damaged, missing, recovered or being recorded.
@Suite struct MemoStateTagTests {
    static func memo(_ id: Int64, _ title: String, state: MemoRow.State) -> MemoRow {
        var memo = Fixtures.memo(id, title, minutesAgo: Double(id), seconds: 5, size: 1000)
        memo.state = state
        return memo
    }

    @Test(arguments: [(80, 24), (40, 24), (120, 40)])
    func theTableTagsEveryStateButComplete(width: Int, height: Int) {
        let memos = [
            Self.memo(1, "Fine", state: .complete), Self.memo(2, "Broken file", state: .damaged),
            Self.memo(3, "Gone file", state: .missing), Self.memo(4, "After a crash", state: .recovered),
            Self.memo(5, "Elsewhere " + String(repeating: "x", count: 200), state: .recording),
        ]
        let state = Fixtures.state(width: width, height: height, memos: memos)
        let lines = AppView.render(state).lines()
        func line(_ title: String) -> String? { lines.first { $0.contains(title) } }
        #expect(line("Fine").map { !$0.contains("[") } == true, "\(lines)")
        #expect(line("Broken file")?.contains("[damaged]") == true, "\(lines)")
        #expect(line("Gone file")?.contains("[missing]") == true, "\(lines)")
        #expect(line("After a crash")?.contains("[recovered]") == true, "\(lines)")
        #expect(line("Elsewhere")?.contains("[recording]") == true, "a long title is cut, the tag kept: \(lines)")
    }

    @Test func aTinyTableHasNoRoomForTagsAndStillDraws() {
        let state = Fixtures.state(width: 12, height: 10, memos: [Self.memo(2, "Broken", state: .damaged)])
        _ = AppView.render(state)
        #expect(MemoTableView.titleText(Self.memo(2, "Broken", state: .damaged), width: 8).count == 8)
    }
}
