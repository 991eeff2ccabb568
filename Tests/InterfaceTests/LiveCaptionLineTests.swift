import TestSupport
import Testing

@testable import Interface

/// Live captions under the meter: `C` turns them on and off, the draft shows the newest words
/// (settled, then the guess in progress), a new recording starts an empty draft, a stop says why
/// on the line, and the line gives way before the meter and the table do.
@Suite struct LiveCaptionLineTests {
    static func recording(width: Int = 80, height: Int = 24, captions: Bool = true) -> AppState {
        var state = LiveWaveformTests.recordingState(width: width, height: height)
        state.captions.isOn = captions
        return state
    }

    @Test func cTurnsCaptionsOnAndOffAndTheRuntimeIsAskedForThemOnlyWhileRecording() {
        var state = Self.recording(captions: false)
        #expect(!state.showsCaptions && !state.wantsCaptions)
        _ = reduce(&state, .key(.character("C")))
        #expect(state.captions.isOn && state.showsCaptions && state.wantsCaptions)
        #expect(state.statusLine?.text.contains("Live captions on") == true)
        _ = reduce(&state, LiveWaveformTests.tick(5, peak: -6, recording: .paused, at: Fixtures.now + 30))
        #expect(state.showsCaptions && !state.wantsCaptions, "paused: the line stays, nothing is captioned")
        _ = reduce(&state, LiveWaveformTests.tick(5, peak: -160, recording: .idle, at: Fixtures.now + 31))
        #expect(!state.showsCaptions && !state.wantsCaptions, "idle: no line")
        _ = reduce(&state, .key(.character("C")))
        #expect(!state.captions.isOn && state.statusLine?.text == "Live captions off.")
    }

    @Test func theDraftIsTheSettledWordsThenTheGuessAndANewRecordingClearsIt() {
        var state = Self.recording()
        _ = reduce(&state, .captions(.words("and mister", isFinal: false)))
        #expect(state.captions.draft == "and mister")
        _ = reduce(&state, .captions(.words("and mister john dashwood", isFinal: true)))
        _ = reduce(&state, .captions(.words("had then\u{1B}[2J", isFinal: false)))
        #expect(state.captions.draft == "and mister john dashwood had then␛[2J", "settled, then the guess, made safe: \(state.captions.draft)")
        _ = reduce(&state, .captions(.words("", isFinal: true)))
        #expect(state.captions.draft == "and mister john dashwood", "an utterance that settled on nothing drops its guess")
        for _ in 0..<100 { _ = reduce(&state, .captions(.words("leisure to consider", isFinal: true))) }
        #expect(state.captions.settled.count <= LiveCaptionState.keptCharacters)
        _ = reduce(&state, .recordingStarted(title: "Second", memoID: 9))
        #expect(state.captions.draft.isEmpty && state.captions.isOn)
    }

    @Test func aStopIsSaidOnTheLineAndOnTheStatusLineAndTheNextRecordingTriesAgain() {
        var state = Self.recording()
        _ = reduce(&state, .captions(.words("how much", isFinal: false)))
        _ = reduce(&state, .captions(.stopped(reason: "this machine cannot keep up")))
        #expect(!state.wantsCaptions, "stopped: the runtime lets the captioner go")
        #expect(state.statusLine?.text == "Live captions stopped: this machine cannot keep up; the recording goes on.")
        let line = AppView.render(state).lines()[state.layout.caption!.y]
        #expect(line.hasPrefix(" captions stopped: this machine cannot keep up"), "\(line)")
        _ = reduce(&state, .recordingStarted(title: "Second", memoID: 9))
        #expect(state.wantsCaptions && state.captions.stopped == nil)
    }

    @Test func theLineShowsTheNewestWordsThatFit() {
        var state = Self.recording()
        let line = { AppView.render(state).lines()[state.layout.caption!.y] }
        #expect(line().hasPrefix(" draft listening…"), "\(line())")
        _ = reduce(&state, .captions(.words("and mister john dashwood had then leisure to consider how much there might be prudently in his power to do for them", isFinal: true)))
        _ = reduce(&state, .captions(.words("he was not an ill disposed", isFinal: false)))
        #expect(line().hasPrefix(" draft …"), "cut at the start: \(line())")
        #expect(line().trimmingTrailingSpaces().hasSuffix("he was not an ill disposed"), "\(line())")
        #expect(line().count == 80)
        _ = reduce(&state, LiveWaveformTests.tick(5, peak: -6, recording: .paused, at: Fixtures.now + 30))
        #expect(line().trimmingTrailingSpaces().hasSuffix("disposed (paused)"), "\(line())")
    }

    @Test func theLineGoesBeforeTheWaveformBandAndNeverPushesOutTheTable() {
        for (width, height) in [(80, 24), (120, 40), (40, 12), (30, 8), (20, 5), (1, 1)] {
            let state = Self.recording(width: width, height: height)
            let layout = state.layout
            if let caption = layout.caption {
                #expect(layout.body.height >= 4, "\(width)×\(height): the table keeps its rows")
                #expect(caption.y > (layout.meterRows.last?.y ?? 0), "under the meter")
            } else {
                #expect(layout.waveform == nil, "\(width)×\(height): the band goes first")
            }
        }
        #expect(Self.recording(width: 80, height: 24).layout.caption != nil)
        #expect(Self.recording(width: 30, height: 8).layout.caption == nil)
    }

    @Test(arguments: [(80, 24), (120, 40), (40, 12), (30, 8)])
    func theAppWhileItRecordsWithCaptions(width: Int, height: Int) {
        var state = Self.recording(width: width, height: height)
        _ = reduce(&state, .captions(.words("and mister john dashwood had then leisure", isFinal: true)))
        _ = reduce(&state, .captions(.words("to consider how much", isFinal: false)))
        assertSnapshot(AppView.render(state), named: "live-captions-\(width)x\(height)")
    }

    @Test func tailKeepsTheEndOfWideText() {
        #expect(TextFitting.tail("abcdef", toWidth: 4) == "…def")
        #expect(TextFitting.tail("abc", toWidth: 4) == "abc")
        #expect(TextFitting.tail("日本語のテキスト", toWidth: 7) == "…キスト")
        #expect(TextFitting.tail("abc", toWidth: 0).isEmpty)
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
