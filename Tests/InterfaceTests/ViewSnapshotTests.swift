import TestSupport
import Vocabulary
import Testing
import Metering

@testable import Interface

/// Rendered Screens compared with snapshot files at the sizes people use and the ones they should survive.
@Suite struct ViewSnapshotTests {
    static let sizes: [(Int, Int)] = [(80, 24), (120, 40), (40, 12), (1, 1)]

    static let scenes: [(String, @Sendable (Int, Int) -> AppState)] = [
        ("empty-library", { Fixtures.state(width: $0, height: $1, memos: []) }),
        ("monitoring", { Fixtures.state(width: $0, height: $1) }),
        ("recording", { Fixtures.state(width: $0, height: $1, [.tick(time: Fixtures.now + 11, snapshot: Fixtures.levels(recording: .recording, frames: 48000 * 197))]) }),
        ("paused", { Fixtures.state(width: $0, height: $1, [.tick(time: Fixtures.now + 11, snapshot: Fixtures.levels(recording: .paused, frames: 48000 * 65))]) }),
        ("rename-prompt", { Fixtures.state(width: $0, height: $1, [.key(.down), .key(.character("e")), .key(.end), .key(.backspace), .key(.character("é"))]) }),
        ("rename-prompt-selected", { Fixtures.state(width: $0, height: $1, [.key(.down), .key(.character("e"))]) }),
        ("deleted-at-once", { Fixtures.state(width: $0, height: $1, [.key(.character("d"))]) }),
        ("purge-confirmation", { Fixtures.state(width: $0, height: $1, [.key(.character("d")), .key(.character("t")), .key(.character("p"))]) }),
        ("help", { Fixtures.state(width: $0, height: $1, [.key(.character("?"))]) }),
        ("error", { Fixtures.state(width: $0, height: $1, input: nil, [.inputFailed(.microphoneNotOpened(device: "default", reason: "No such file or directory"))]) }),
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
        let six = InputDescription(name: .alsa(device: "surround51"), sampleRate: 48000, channels: 6, recordingFormat: "FLAC")
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

/// Each meter mode at 80×24 (and the loudness rows at the smaller sizes), selected with `m`.
@Suite struct MeterModeSnapshotTests {
    /// The fixture's voice with its PPM, VU and loudness readings.
    static let readings = EngineSnapshot(
        channels: [ChannelLevel(average: -18.2, peak: -6.1), ChannelLevel(average: -19.0, peak: -7.3)],
        ballistics: BallisticReadings(
            levels: [.ppm1: [-8.4, -9.6], .ppm2: [-9.9, -11.2], .vu: [-17.1, -18.0]],
            momentaryLoudness: -21.6, shortTermLoudness: -23.4))

    static func state(_ mode: MeterMode, width: Int = 80, height: Int = 24, target: Double = -23) -> AppState {
        var state = Fixtures.state(width: width, height: height)
        state.loudnessTarget = target
        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: readings))
        while state.meterMode != mode { _ = reduce(&state, .key(.character("m"))) }
        return state
    }

    @Test(arguments: MeterMode.allCases)
    func eachModeAt80x24(_ mode: MeterMode) {
        assertSnapshot(AppView.render(Self.state(mode)), named: "meter-\(mode.rawValue)-80x24")
    }

    @Test func loudnessAtOtherSizesAndTargets() {
        for (width, height) in [(200, 50), (40, 12), (20, 5), (1, 1)] {
            assertSnapshot(AppView.render(Self.state(.loudness, width: width, height: height)), named: "meter-loudness-\(width)x\(height)")
        }
        assertSnapshot(AppView.render(Self.state(.loudness, target: -16)), named: "meter-loudness-speech-target-80x24")
    }

    @Test func theBarFollowsTheModesReading() {
        // The L row's numbers are the mode's reading; the peak column stays the held sample peak.
        let expected: [(MeterMode, String)] = [(.digital, "rms  -18.2  pk   -6.1"), (.ppm1, "ppm   -8.4  pk   -6.1"), (.ppm2, "ppm   -9.9  pk   -6.1"), (.vu, " vu  -17.1  pk   -6.1")]
        for (mode, numbers) in expected {
            let lines = AppView.render(Self.state(mode)).lines()
            #expect(lines[1].contains(numbers), "\(mode): \(lines[1])")
            #expect(lines[3].contains("dBFS  " + mode.descriptor.name), "\(mode): \(lines[3])")
        }
    }

    @Test func loudnessRowsReadLUFSAndLUFromTheTarget() {
        let lines = AppView.render(Self.state(.loudness)).lines()
        #expect(lines[1].hasPrefix(" M ") && lines[1].contains("-21.6 LUFS") && lines[1].contains("+1.4 LU"), "\(lines[1])")
        #expect(lines[2].hasPrefix(" S ") && lines[2].contains("-23.4 LUFS") && lines[2].contains("-0.4 LU"), "\(lines[2])")
        #expect(lines[3].contains("LU  loudness, 0 = -23 LUFS"), "\(lines[3])")
        // The target mark sits at 18/27 of the LEDs on both rows, whatever the channel count.
        let geometry = MeterGeometry(width: 80)
        let index = Int(Float(18.0 / 27.0) * Float(geometry.ledCount))
        let x = MeterGeometry.labelWidth + index * geometry.ledWidth
        for line in lines[1...2] {
            #expect(Array(line)[x] == "┃", "\(line)")
        }
    }

    @Test func playbackShowsThePlayersLevelsAsDigitalPeak() {
        var state = Self.state(.ppm2)
        _ = reduce(&state, .playbackStarted(memoID: Fixtures.memos[0].id, title: Fixtures.memos[0].title, duration: 131, channels: 2))
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 12, PlaybackSnapshot(elapsed: 1, channels: [ChannelLevel(average: -30, peak: -20), ChannelLevel(average: -31, peak: -21)])))
        let lines = AppView.render(state).lines()
        #expect(lines[1].contains("rms  -30.0  pk  -20.0"), "\(lines[1])")
        #expect(lines[3].contains("dBFS  digital peak (playback)"), "\(lines[3])")
        #expect(state.shownMeterMode == .digital && state.meterMode == .ppm2)
        var digital = Self.state(.digital)
        _ = reduce(&digital, .playbackStarted(memoID: Fixtures.memos[0].id, title: Fixtures.memos[0].title, duration: 131, channels: 2))
        #expect(AppView.render(digital).lines()[3].contains("dBFS  digital peak (playback)"), "also when the mode is digital already")
    }

    /// Below the meter's floor (silence, −∞, NaN, a falling peak hold) every mode reads "<-60".
    @Test func belowTheFloorReadsTheFloorNotAFigure() {
        #expect(DisplayFormat.meterReading(-160, floor: -60) == "<-60")
        #expect(DisplayFormat.meterReading(-.infinity, floor: -60) == "<-60")
        #expect(DisplayFormat.meterReading(.nan, floor: -60) == "<-60")
        #expect(DisplayFormat.meterReading(-97.4, floor: -60) == "<-60")
        #expect(DisplayFormat.meterReading(-60, floor: -60) == "-60.0", "the floor itself is a level")
        #expect(DisplayFormat.meterReading(-0.04, floor: -60) == "0.0")
        #expect(DisplayFormat.meterReading(-170, floor: -160) == "<-160")
        #expect(DisplayFormat.belowFloor(-41.5) == "<-41.5")
        #expect(LoudnessView.lufs(-90, target: -23) == "<-41" && LoudnessView.relative(-90, target: -23) == "<-18")
        #expect(LoudnessView.lufs(nil, target: -23) == "--.-" && LoudnessView.relative(nil, target: -23) == nil)
        var state = Self.state(.digital)
        _ = reduce(&state, .tick(time: Fixtures.now + 1, snapshot: EngineSnapshot(
            channels: [ChannelLevel(average: -160, peak: -160), ChannelLevel(average: -160, peak: -160)], recording: .idle)))
        let lines = AppView.render(state).lines()
        #expect(lines[1].contains("rms   <-60  pk"), "\(lines[1])")
    }

    @Test func mCyclesEveryModeAndSaysWhatItIs() {
        var state = Fixtures.state(width: 80, height: 24)
        var seen: [MeterMode] = []
        for _ in MeterMode.allCases {
            _ = reduce(&state, .key(.character("m")))
            seen.append(state.meterMode)
            #expect(state.status?.text == state.meterMode.descriptor.explanation)
        }
        #expect(seen == [.ppm1, .ppm2, .vu, .loudness, .digital])
    }
}

/// A meeting (the default source and the desktop's monitor in one memo) on the meter: the header
/// names it, and each row says whose channel it is, "M" the microphone's and "D" the desktop's,
/// at 2 channels and at 4; other joins keep the usual labels.
@Suite struct MeetingMeterTests {
    static func state(channels: Int, input: InputName = .meeting) -> AppState {
        let meeting = InputDescription(name: input, sampleRate: 48000, channels: channels, recordingFormat: "FLAC")
        let levels = EngineSnapshot(
            channels: (0..<channels).map { ChannelLevel(average: $0 < channels / 2 ? -18 : -30, peak: $0 < channels / 2 ? -9 : -24) },
            recordedFrames: 0, recording: .idle)
        return Fixtures.state(width: 80, height: 24, input: meeting, [.tick(time: Fixtures.now + 11, snapshot: levels)])
    }

    @Test func aMeetingOfTwoChannelsAt80x24() {
        assertSnapshot(AppView.render(Self.state(channels: 2)), named: "meeting-2ch-80x24")
    }

    @Test func aMeetingOfFourChannelsAt80x24() {
        assertSnapshot(AppView.render(Self.state(channels: 4)), named: "meeting-4ch-80x24")
    }

    @Test func anotherJoinKeepsTheUsualLabels() {
        let text = AppView.render(Self.state(channels: 2, input: .joined(first: "a", second: "b"))).lines()
        #expect(text.contains { $0.hasPrefix(" L ") } && text.contains { $0.hasPrefix(" R ") }, "\(text)")
    }
}
