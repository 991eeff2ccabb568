import TestSupport
import Testing

@testable import Interface

/// The recording in progress has a row of its own above the memos: it records, is paused, is
/// being saved after `s`, then is the table's first memo.
@Suite struct RecordingRowTests {
    static func recording(width: Int = 80, height: Int = 24) -> AppState {
        var state = Fixtures.state(width: width, height: height)
        _ = reduce(&state, .recordingStarted(title: "Memo 2026-11-29 14:05:10", memoID: 9))
        _ = reduce(&state, .tick(time: Fixtures.now + 20, snapshot: Fixtures.levels(recording: .recording, frames: 48_000 * 75)))
        return state
    }

    private func rows(_ state: AppState) -> [String] {
        let lines = AppView.render(state).lines()
        guard let header = lines.firstIndex(where: { $0.contains("Title") && $0.contains("Length") }) else { return [] }
        return Array(lines[(header + 1)...])
    }

    @Test func theRecordingIsTheFirstRowUntilItIsSaved() {
        var state = Self.recording()
        #expect(state.liveRecordingRow?.tag == "[recording]")
        var first = rows(state).first ?? ""
        // The whole default title and its tag at 80 columns: the title runs on over the date
        // column (a recording in progress is today's), the start time, length and size follow.
        #expect(first.hasPrefix(" ●Memo 2026-11-29 14:05:10 [recording]"), "\(first)")
        #expect(!first.contains("Today") && first.contains("00:01:15") && first.contains("…"), "\(first)")
        #expect(rows(state).dropFirst().first?.hasPrefix("▶ Standup notes") == true, "the selection stays on the first memo")
        assertSnapshot(AppView.render(state), named: "recording-row-80x24")

        _ = reduce(&state, .key(.character("r")))
        #expect(state.recording == .paused)
        #expect(rows(state).first?.contains("[paused]") == true, "\(rows(state).first ?? "")")

        _ = reduce(&state, .key(.character("s")))
        #expect(state.liveRecordingRow?.tag == "[saving]", "after s, until the save is done")
        first = rows(state).first ?? ""
        #expect(first.contains("[saving]"), "\(first)")

        let saved = Fixtures.memo(9, "Memo 2026-11-29 14:05:10", minutesAgo: 0, seconds: 75, size: 700_000)
        _ = reduce(&state, .recordingSaved(saved))
        #expect(state.liveRecordingRow == nil)
        #expect(!rows(state).contains { $0.contains("●") })
        #expect(state.memos.first?.id == 9, "now the table's first memo")
    }

    @Test func aTinyTableHasNoRoomForIt() {
        let state = Self.recording(width: 30, height: 8)
        #expect(state.liveRecordingRow == nil)
        #expect(AppView.render(state).lines().count == 8)
    }

    /// With more memos than rows, the selected last memo stays in sight under the recording's row.
    @Test func theSelectionStaysInSightBelowIt() {
        var state = Self.recording(width: 80, height: 14)
        _ = reduce(&state, .key(.character("G")))
        let shown = rows(state)
        #expect(shown.first?.contains("[recording]") == true)
        #expect(shown.contains { $0.hasPrefix("▶ Grocery list") }, "\(shown)")
    }
}
