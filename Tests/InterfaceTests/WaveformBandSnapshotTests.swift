import TestSupport
import Metering
import Testing

@testable import Interface

/// The waveform band of a known signal, drawn from its envelope: 1 s of digital silence, 1 s of
/// a tone burst at −12 dBFS, 1 s of a ramp from −60 to 0 dBFS (20 blocks a second), while it
/// plays at 1.5 s with the in point at 0.5 s, the out point at 2.5 s and a marker at 2 s.
@Suite struct WaveformBandSnapshotTests {
    static let signal: PeakEnvelope = {
        let silence = [UInt8](repeating: 0, count: 20)
        let burst = [UInt8](repeating: PeakEnvelope.code(forAmplitude: Float(Decibels.toAmplitude(-12))), count: 20)
        let ramp = (0..<20).map { PeakEnvelope.code(forAmplitude: Float(Decibels.toAmplitude(-60 + 60 * Double($0 + 1) / 20))) }
        return PeakEnvelope(blockFrames: 2_400, peaks: silence + burst + ramp)
    }()

    static let memo = Fixtures.memo(7, "Signal", minutesAgo: 1, seconds: 3, size: 576_000)

    static func state(width: Int, height: Int, playing: Bool = true) -> AppState {
        var state = Fixtures.state(width: width, height: height, memos: [memo] + Fixtures.memos)
        _ = reduce(&state, .waveformLoaded(memoID: 7, signal))
        guard playing else { return state }
        _ = reduce(&state, .playbackStarted(memoID: 7, title: "Signal", duration: 3, channels: 2))
        for (time, key) in [(0.5, "("), (2.5, ")")] {
            _ = reduce(&state, .playbackProgress(time: state.now, PlaybackSnapshot(elapsed: time, channels: [])))
            _ = reduce(&state, .key(.character(Character(key))))
        }
        _ = reduce(&state, .markersLoaded(memoID: 7, times: [2]))
        _ = reduce(&state, .playbackProgress(time: state.now, PlaybackSnapshot(elapsed: 1.5, channels: [])))
        return state
    }

    static func band(_ state: AppState, width: Int) -> Screen {
        var screen = Screen(width: width, height: WaveformBandView.rows)
        WaveformBandView.render(state, in: Rect(x: 0, y: 0, width: width, height: WaveformBandView.rows), on: &screen)
        return screen
    }

    @Test(arguments: [80, 20])
    func theBandOfAKnownSignal(width: Int) {
        let screen = Self.band(Self.state(width: 80, height: 24), width: width)
        assertSnapshot(screen, named: "waveform-band-\(width)")
        let glyphs = Array(screen.lines()[0])
        #expect(glyphs.prefix(width / 3).allSatisfy { $0 == " " || $0 == "▁" }, "silence is blank (the play head aside)")
        #expect(Set(glyphs[(width / 3 + 1)..<(2 * width / 3 - 1)]) == ["▆"], "a −12 dBFS burst on the memo's own scale: 0 dBFS full, the ramp's quiet end (−39 or −48 dBFS by the width) blank")
        #expect(glyphs.last == "█", "the ramp ends at full scale")
        #expect(screen.lines()[1].filter { "[]▲┃".contains($0) }.count == 4, "in, out, play head and a marker")
        let headCell = Int(1.5 / 3 * Double(width))
        #expect(screen[headCell, 0].style.attributes.contains(.reverse), "the play head's column")
        #expect(screen[width - 1, 0].style.attributes.contains(.dim), "after the out point: dim")
    }

    @Test func theSelectedMemoWithoutPlayback() {
        let screen = Self.band(Self.state(width: 80, height: 24, playing: false), width: 80)
        assertSnapshot(screen, named: "waveform-band-selected-80")
        #expect(screen.lines()[1].allSatisfy { $0 == " " }, "no play head, no points")
    }

    @Test(arguments: [(80, 24), (200, 50), (30, 8), (20, 24)])
    func theAppWithTheBand(width: Int, height: Int) {
        let state = Self.state(width: width, height: height)
        assertSnapshot(AppView.render(state), named: "waveform-playing-\(width)x\(height)")
        #expect((state.layout.waveform == nil) == (width == 30), "hidden at 30×8")
    }

    @Test func aMemoWithoutAnEnvelopeSaysSo() {
        var state = Self.state(width: 80, height: 24, playing: false)
        _ = reduce(&state, .waveformLoaded(memoID: 7, nil))
        #expect(Self.band(state, width: 80).lines()[0].hasPrefix(" no waveform: none stored"))
        _ = reduce(&state, .key(.down))
        #expect(Self.band(state, width: 80).lines()[0].hasPrefix(" reading the waveform…"), "another memo, not read yet")
    }

    /// `(` and `)` set a point at the play head: the point shows beside `▲`, not under it.
    @Test func aPointSetAtThePlayHeadShowsBesideIt() {
        var state = Fixtures.state(width: 80, height: 24, memos: [Self.memo] + Fixtures.memos)
        _ = reduce(&state, .waveformLoaded(memoID: 7, Self.signal))
        _ = reduce(&state, .playbackStarted(memoID: 7, title: "Signal", duration: 3, channels: 2))
        _ = reduce(&state, .playbackProgress(time: state.now, PlaybackSnapshot(elapsed: 1.5, channels: [])))
        _ = reduce(&state, .key(.character("(")))
        #expect(Self.band(state, width: 80).lines()[1].contains("[▲"), "the in point left of the head")
        #expect(WaveformBandView.editMarks(inPoint: 40, outPoint: 40, head: 40, width: 80) == (39, 41), "both beside it")
        #expect(WaveformBandView.editMarks(inPoint: 0, outPoint: nil, head: 0, width: 80) == (1, nil), "at the left edge: right of it")
        #expect(WaveformBandView.editMarks(inPoint: nil, outPoint: 79, head: 79, width: 80) == (nil, 78), "at the right edge: left of it")
        #expect(WaveformBandView.editMarks(inPoint: 3, outPoint: 9, head: 5, width: 80) == (3, 9), "elsewhere: where they are")
    }
}
