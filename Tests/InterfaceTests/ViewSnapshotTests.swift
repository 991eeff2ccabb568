import Testing

@testable import Interface

/// Rendered Screens compared with snapshot files at the sizes people use and the ones they should survive.
@Suite struct ViewSnapshotTests {
    static let sizes: [(Int, Int)] = [(80, 24), (120, 40), (40, 12), (1, 1)]

    static let scenes: [(String, @Sendable (Int, Int) -> AppState)] = [
        ("empty-library", { Fixtures.state(width: $0, height: $1, memos: []) }),
        ("monitoring", { Fixtures.state(width: $0, height: $1) }),
        ("recording", { Fixtures.state(width: $0, height: $1, [.tick(time: Fixtures.now + 11, snapshot: Fixtures.levels(recording: .recording, frames: 48000 * 197))]) }),
        ("paused", { Fixtures.state(width: $0, height: $1, [.tick(time: Fixtures.now + 11, snapshot: Fixtures.levels(recording: .paused, frames: 48000 * 65))]) }),
        ("rename-prompt", { Fixtures.state(width: $0, height: $1, [.key(.down), .key(.character("e")), .key(.backspace), .key(.character("é"))]) }),
        ("delete-confirmation", { Fixtures.state(width: $0, height: $1, [.key(.character("d"))]) }),
        ("help", { Fixtures.state(width: $0, height: $1, [.key(.character("?"))]) }),
        ("error", { Fixtures.state(width: $0, height: $1, input: nil, [.inputFailed("No microphone: ALSA 'default' cannot be opened (No such file or directory). Press i to choose an input.")]) }),
        ("hostile-titles", { Fixtures.state(width: $0, height: $1, memos: Fixtures.hostileMemos + Fixtures.memos) }),
        ("no-color", { Fixtures.state(width: $0, height: $1, usesColor: false) }),
        ("diagnosis-silent", { Fixtures.state(width: $0, height: $1, [.tick(time: Fixtures.now + 11, snapshot: Fixtures.mutedInput)]) }),
        ("diagnosis-dead-right-channel", { Fixtures.state(width: $0, height: $1, [.tick(time: Fixtures.now + 11, snapshot: Fixtures.deadRightChannel)]) }),
    ]

    @Test(arguments: 0..<scenes.count)
    func scene(_ index: Int) {
        let (name, make) = Self.scenes[index]
        for (width, height) in Self.sizes {
            assertSnapshot(AppView.render(make(width, height)), named: "\(name)-\(width)x\(height)")
        }
        let empty = AppView.render(make(0, 0))
        #expect(empty.lines().isEmpty)
    }
}

@Suite struct MeterOverflowTests {
    /// Six channels in a terminal with room for fewer rows: the meter says how many are hidden.
    @Test func moreChannelsThanRowsSaysSo() {
        let six = InputDescription(name: "alsa:surround51", sampleRate: 48000, channels: 6, recordingFormat: "FLAC")
        let levels = EngineSnapshot(
            channels: Array(repeating: ChannelLevel(average: -20, peak: -10), count: 6), recordedFrames: 0, recording: .idle)
        var state = Fixtures.state(width: 80, height: 12, input: six)
        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: levels))
        let shown = state.layout.meterRows.count
        let text = AppView.render(state).lines().joined(separator: "\n")
        if shown < 6 {
            #expect(text.contains("+\(6 - shown) ch"), "\(text)")
        } else {
            Issue.record("the layout fits all six rows at 80×12; the test needs a smaller terminal")
        }
        let roomy = Fixtures.state(width: 80, height: 40, input: six, [.tick(time: Fixtures.now + 11, snapshot: levels)])
        let roomyText = AppView.render(roomy).lines().joined(separator: "\n")
        #expect((1...5).allSatisfy { !roomyText.contains("+\($0) ch") }, "nothing hidden, nothing said")
    }
}
