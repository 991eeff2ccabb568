import TestSupport
import Metering
import Testing

@testable import Interface

/// While it records, the band under the meter shows the recording's own
/// waveform (newest at the right, bins of recorded time), and says so; it used to go on showing
/// the selected memo's, which read as a live waveform of the recording.
@Suite struct LiveWaveformTests {
    /// A tick of the recorder at `seconds` into the recording, its peak at `peak` dBFS.
    static func tick(_ seconds: Double, peak: Float, recording: RecordingState = .recording, at time: Double) -> Action {
        .tick(time: time, snapshot: EngineSnapshot(
            channels: [ChannelLevel(average: peak - 6, peak: peak), ChannelLevel(average: -160, peak: -160)],
            recordedFrames: Int64(seconds * 48_000), recording: recording))
    }

    /// Recording at 80×24 with the selected memo's waveform read: 2 s of silence, 2 s of a
    /// voice at −6 dBFS (ticks every 33 ms), then 1 s of −30 dBFS.
    static func recordingState(width: Int = 80, height: Int = 24) -> AppState {
        var state = Fixtures.state(width: width, height: height)
        _ = reduce(&state, .waveformLoaded(memoID: 1, WaveformBandSnapshotTests.signal))
        var time = Fixtures.now + 20
        var seconds = 0.0
        while seconds < 5 {
            let peak: Float = seconds < 2 ? -160 : seconds < 4 ? -6 : -30
            _ = reduce(&state, tick(seconds, peak: peak, at: time))
            seconds += 0.033
            time += 0.033
        }
        return state
    }

    @Test func binsHoldTheHighestPeakOfTheirRecordedTime() {
        var live = LiveWaveform()
        live.add(peak: -20, at: 0)
        live.add(peak: -10, at: 0.1)
        live.add(peak: -40, at: 0.2)
        #expect(live.peaks == [-10, -40], "0.125 s bins: the first holds the louder of its two ticks")
        live.add(peak: -30, at: 0.6)
        #expect(live.peaks == [-10, -40, -30, -30, -30], "bins no tick fell in take the next tick's level")
        live.add(peak: .nan, at: 0.7)
        live.add(peak: -5, at: .infinity)
        #expect(live.peaks.count == 6 && live.peaks.last == -160, "a NaN peak reads silence; an infinite time is ignored")
        #expect(live.columnPeaks(width: 2) == [-30, -160], "the newest columns")
        #expect(live.columnPeaks(width: 0).isEmpty)
        var long = LiveWaveform()
        for bin in 0..<3000 { long.add(peak: Double(-bin % 60), at: Double(bin) * LiveWaveform.binSeconds) }
        #expect(long.peaks.count == LiveWaveform.capacity, "only the last bins are kept")
        long.add(peak: 0, at: 1e300)
        #expect(long.peaks.count == LiveWaveform.capacity, "a jump far ahead keeps the cap")
    }

    @Test func theBandShowsTheRecordingNotTheSelectedMemo() {
        let state = Self.recordingState()
        #expect(state.showsLiveWaveform)
        let screen = WaveformBandSnapshotTests.band(state, width: 80)
        let glyphs = Array(screen.lines()[0])
        // 5 s of recording in 0.125 s columns: 40 columns, right-aligned.
        #expect(glyphs.prefix(40).allSatisfy { $0 == " " }, "before the recording's start: blank")
        #expect(glyphs[40..<56].allSatisfy { $0 == " " }, "2 s of silence")
        #expect(Set(glyphs[57..<71]) == ["█"], "2 s at −6 dBFS (7.2 of 8 eighths, rounded up)")
        #expect(Set(glyphs[73..<80]) == ["▄"], "then −30 dBFS")
        #expect(screen.lines()[1].hasPrefix(" live: this recording, the last 10 s"), "\(screen.lines()[1])")
        #expect(screen[70, 0].style.foreground == .red, "red, the recording's colour")
        assertSnapshot(AppView.render(state), named: "live-waveform-80x24")
    }

    @Test func pausedItSaysSoAndPlaybackTakesTheBandBack() {
        var state = Self.recordingState()
        _ = reduce(&state, Self.tick(5, peak: -6, recording: .paused, at: Fixtures.now + 30))
        let paused = WaveformBandSnapshotTests.band(state, width: 80)
        #expect(paused.lines()[1].hasPrefix(" paused: this recording"), "\(paused.lines()[1])")
        #expect(paused[79, 0].style.attributes.contains(.dim))
        _ = reduce(&state, .playbackStarted(memoID: 1, title: "Standup notes", duration: 3, channels: 2))
        #expect(!state.showsLiveWaveform, "a memo that plays has the band")
        #expect(!WaveformBandSnapshotTests.band(state, width: 80).lines()[1].contains("this recording"))
    }

    @Test func aNewRecordingStartsAFreshWaveform() {
        var state = Self.recordingState()
        _ = reduce(&state, Self.tick(0, peak: -160, recording: .idle, at: Fixtures.now + 40))
        #expect(!state.showsLiveWaveform, "idle: the selected memo's band again")
        _ = reduce(&state, Self.tick(0.05, peak: -12, at: Fixtures.now + 41))
        #expect(state.liveWaveform.peaks == [-12], "the last recording's bins are gone")
    }

    /// The app's `r` says `recordingStarted` before the engine's first tick of the recording, so
    /// the reducer never sees idle → recording in a tick: the last recording's bins must still go.
    @Test func aSecondRecordingAfterRecordingStartedDoesNotContinueTheFirst() {
        var state = Self.recordingState()
        _ = reduce(&state, Self.tick(0, peak: -160, recording: .idle, at: Fixtures.now + 40))
        _ = reduce(&state, .recordingStarted(title: "Second", memoID: 9))
        #expect(state.liveWaveform.peaks.isEmpty, "recordingStarted starts a fresh waveform")
        _ = reduce(&state, Self.tick(0.05, peak: -12, at: Fixtures.now + 41))
        _ = reduce(&state, Self.tick(0.3, peak: -20, at: Fixtures.now + 41.25))
        #expect(state.liveWaveform.peaks == [-12, -20, -20], "its own bins from its start")
        var live = LiveWaveform()
        live.add(peak: -6, at: 4)
        live.add(peak: -30, at: 0.01)
        #expect(live.peaks == [-30] && live.lastBin == 0, "recorded time going back is a new recording")
    }

    @Test(arguments: [(60, 20), (120, 40), (200, 50), (20, 24), (30, 8)])
    func theAppWhileItRecords(width: Int, height: Int) {
        let state = Self.recordingState(width: width, height: height)
        assertSnapshot(AppView.render(state), named: "live-waveform-\(width)x\(height)")
        #expect((state.layout.waveform == nil) == (height < 10), "no room at \(width)×\(height)")
    }

    @Test func withNoMemoReadTheBandStillAppearsWhileRecording() {
        var state = Fixtures.state(width: 80, height: 24, memos: [])
        #expect(state.layout.waveform == nil, "idle and nothing read: no band")
        _ = reduce(&state, Self.tick(0.1, peak: -6, at: Fixtures.now + 20))
        #expect(state.layout.waveform != nil, "recording: the band shows the recording")
    }
}
