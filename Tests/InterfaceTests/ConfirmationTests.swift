import TestSupport
import Testing

@testable import Interface

/// The rule that fits a y/N question into the status rows: the long wording when it fits,
/// else the short one, else the question cut at a word with its answer keys kept.
@Suite struct ConfirmationTests {
    let pauses = Confirmation(
        full: "Cut each pause of “Standup notes” to 0.5 s? (y/N) Below -50 dBFS is a pause; the original goes to Recently Deleted.",
        short: "Cut each pause of “Standup notes” to 0.5 s? (y/N)")

    @Test func theFullWordingWrapsOntoTwoRows() {
        let lines = pauses.lines(width: 79, rows: 2)
        #expect(lines.count == 2 && lines.joined(separator: " ") == pauses.full, "\(lines)")
        #expect(pauses.rowsWanted(width: 79) == 2)
        #expect(pauses.lines(width: 59, rows: 2).joined(separator: " ") != pauses.full || pauses.lines(width: 59, rows: 2).count <= 2)
    }

    @Test func oneRowKeepsTheQuestionAndDropsTheReasonWhole() {
        #expect(pauses.lines(width: 79, rows: 1) == [pauses.short])
    }

    @Test func aTinyRowCutsTheQuestionAtAWordAndKeepsTheAnswer() {
        let lines = pauses.lines(width: 30, rows: 1)
        #expect(lines.count == 1 && lines[0].hasSuffix("… (y/N)") && DisplayWidth.of(lines[0]) <= 30, "\(lines)")
        #expect(pauses.lines(width: 5, rows: 1) == ["(y/N)"])
        #expect(pauses.lines(width: 0, rows: 1).isEmpty && pauses.lines(width: 40, rows: 0).isEmpty)
    }

    @Test func thePurgeQuestionAt80ColumnsWithALongTitleWrapsInsteadOfLosingTheAnswer() {
        var state = Fixtures.state(width: 80, height: 24)
        var deleted = state.memos[0]
        deleted.title = String(repeating: "Interview with the committee ", count: 3)
        deleted.deletedAt = Fixtures.now
        state.deletedMemos = [deleted]
        state.mode = .confirmingPurge(id: deleted.id)
        #expect(state.layout.status?.height == 2)
        let lines = AppView.render(state).lines()
        let status = lines[(state.layout.status?.y ?? 0)...].prefix(2).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(status.joined(separator: " ").hasSuffix("This cannot be undone. (y/N)"), "\(status)")
    }
}
