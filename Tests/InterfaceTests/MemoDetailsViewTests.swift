import TestSupport
import Testing

@testable import Interface

/// `I`: the selected memo's details in the table's place; any key closes them.
@Suite struct MemoDetailsViewTests {
    /// "Interview with Dr. Ōtsuka" (memo 3) measured in full, and recovered.
    static func measured() -> MemoRow {
        var memo = Fixtures.memos[2]
        memo.frames = 178_812_345
        memo.truePeakDBTP = -0.62
        memo.loudnessRange = 7.43
        memo.clipCount = 2
        memo.state = .recovered
        return memo
    }

    static func showing(width: Int, height: Int) -> AppState {
        var memos = Fixtures.memos
        memos[2] = measured()
        var state = Fixtures.state(width: width, height: height, memos: memos)
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.character("I")))
        _ = reduce(&state, .memoDetailsLoaded(MemoExtras(
            memoID: 3, markers: [.init(time: 312, label: "Her first book"), .init(time: 1840)],
            transcript: .words(MemoDetailsExtrasTests.words))))
        return state
    }

    @Test func iShowsTheSelectedMemosDetailsAndAnyKeyCloses() {
        var state = Self.showing(width: 80, height: 24)
        #expect(state.mode == .details(id: 3))
        let lines = AppView.render(state).lines()
        func line(_ label: String) -> String { lines.first { $0.hasPrefix(" " + label + " ") } ?? "" }
        #expect(line("Title").contains("Interview with Dr. Ōtsuka"))
        #expect(line("File").contains("/library/3.flac"))
        #expect(line("Format").contains("FLAC, pcm16, 48 kHz, 2 channels"))
        #expect(line("Length").contains("01:02:05.257 (178812345 frames)"), "\(line("Length"))")
        #expect(line("Levels").contains("peak -3.0 dBFS   true peak -0.6 dBTP"), "\(line("Levels"))")
        #expect(line("Loudness").contains("-10.0 LUFS   range 7.4 LU"), "\(line("Loudness"))")
        #expect(line("Clips").contains("2"))
        #expect(line("State").contains("recovered"))
        #expect(KeyHelp.footer(for: state).map(\.0) == ["any key"])
        #expect(reduce(&state, .key(.character("j"))) == [])
        #expect(state.mode == .browsing, "any key closes")
        #expect(state.selectedMemo?.id == 3, "and moves nothing")
    }

    @Test func withoutAMemoISaysSo() {
        var state = Fixtures.state(width: 80, height: 24, memos: [])
        #expect(reduce(&state, .key(.character("I"))) == [])
        #expect(state.mode == .browsing)
        #expect(state.status?.text == "No memo to show the details of.")
    }

    @Test func unmeasuredLevelsShowADash() {
        let lines = MemoDetailsView.lines(Fixtures.memos[3], state: Fixtures.state(width: 80, height: 24))
        let values = Dictionary(uniqueKeysWithValues: lines.map { ($0.label, $0.value) })
        #expect(values["Levels"] == "peak -3.0 dBFS   true peak —")
        #expect(values["Loudness"] == "— LUFS   range —")
        #expect(values["Clips"] == "—")
        #expect(values["Deleted"] == nil)
    }

    @Test func lengthToTheMillisecond() {
        #expect(MemoDetailsView.lengthToTheMillisecond(120_000, sampleRate: 48_000) == "00:00:02.500")
        #expect(MemoDetailsView.lengthToTheMillisecond(1, sampleRate: 44_100) == "00:00:00.000")
        #expect(MemoDetailsView.lengthToTheMillisecond(44_078, sampleRate: 44_100) == "00:00:01.000", "rounded")
        #expect(MemoDetailsView.lengthToTheMillisecond(0, sampleRate: 0) == "00:00:00.000")
        #expect(MemoDetailsView.rate(44_100) == "44.1 kHz" && MemoDetailsView.rate(22_050) == "22050 Hz")
    }

    @Test(arguments: [(80, 24), (40, 14), (200, 50)])
    func snapshots(width: Int, height: Int) {
        assertSnapshot(AppView.render(Self.showing(width: width, height: height)), named: "details-\(width)x\(height)")
    }
}
