import TestSupport
import Metering
import Testing

@testable import Interface

/// The input's diagnosis on the status line: shown while monitoring, giving way to the
/// messages actions produce for their lifetime, gone when the cause goes.
@Suite struct DiagnosisStatusTests {
    static let t = Fixtures.now + 10

    @Test func theDiagnosisShowsWhileItLastsAndGoesWithItsCause() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(state.statusLine == nil)
        _ = reduce(&state, .tick(time: Self.t + 1, snapshot: Fixtures.mutedInput))
        #expect(state.statusLine == StatusMessage(text: InputDiagnosis.silent.message, kind: .warning))
        #expect(state.status == nil, "a diagnosis is never stored as a message")
        _ = reduce(&state, .tick(time: Self.t + 2, snapshot: Fixtures.levels(recording: .idle)))
        #expect(state.statusLine == nil)
    }

    @Test func aMessageFromAnActionWinsForItsLifetimeThenTheDiagnosisShows() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .tick(time: Self.t + 1, snapshot: Fixtures.deadRightChannel))
        _ = reduce(&state, .exported(ExportedCopy(title: "Standup notes", path: "/tmp/n.wav")))
        #expect(state.statusLine?.text == "Exported “Standup notes” to /tmp/n.wav.")
        _ = reduce(&state, .tick(time: Self.t + 3, snapshot: Fixtures.deadRightChannel))
        #expect(state.statusLine?.kind == .info)
        _ = reduce(&state, .tick(time: Self.t + 5.5, snapshot: Fixtures.deadRightChannel))
        #expect(state.statusLine?.text.hasPrefix("Right channel is silent: ") == true, "\(String(describing: state.statusLine))")
        _ = reduce(&state, .failed(.libraryChange(detail: "The library is read-only.")))
        #expect(state.statusLine?.kind == .error, "errors stay above the diagnosis")
    }

    /// A diagnosis that appears (or changes) while a notice shows replaces the notice once it
    /// has been up 1.5 s: "Listening to …" must not hide "Input is silent" for its 4 s, and
    /// "Saved …" must still be readable. Errors stay.
    @Test func aNewDiagnosisReplacesANoticeOnceReadableButNotAnError() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .tick(time: Self.t, snapshot: Fixtures.levels(recording: .idle)))
        _ = reduce(&state, .exported(ExportedCopy(title: "Standup notes", path: "/tmp/n.wav")))
        _ = reduce(&state, .tick(time: Self.t + 1, snapshot: Fixtures.mutedInput))
        #expect(state.statusLine?.text == "Exported “Standup notes” to /tmp/n.wav.", "a notice up 1 s stays")
        _ = reduce(&state, .tick(time: Self.t + 1.6, snapshot: Fixtures.mutedInput))
        #expect(state.statusLine == StatusMessage(text: InputDiagnosis.silent.message, kind: .warning))
        _ = reduce(&state, .failed(.libraryChange(detail: "The library is read-only.")))
        _ = reduce(&state, .tick(time: Self.t + 2, snapshot: Fixtures.deadRightChannel))
        #expect(state.statusLine?.kind == .error, "an error is never replaced by a diagnosis")
    }

    @Test func playbackHidesTheInputsDiagnosis() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .tick(time: Self.t + 5, snapshot: Fixtures.mutedInput))
        _ = reduce(&state, .playbackStarted(memoID: 1, title: "Standup notes", duration: 131, channels: 2))
        _ = reduce(&state, .tick(time: Self.t + 10, snapshot: Fixtures.mutedInput))
        #expect(state.statusLine == nil)
        _ = reduce(&state, .playbackFinished)
        _ = reduce(&state, .tick(time: Self.t + 20, snapshot: Fixtures.mutedInput))
        #expect(state.statusLine?.text == InputDiagnosis.silent.message)
    }

    @Test func aNewOrFailedInputStartsWithoutADiagnosis() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .tick(time: Self.t + 5, snapshot: Fixtures.mutedInput))
        _ = reduce(&state, .inputOpened(Fixtures.input))
        #expect(state.inputDiagnosis == nil)
        _ = reduce(&state, .tick(time: Self.t + 6, snapshot: Fixtures.mutedInput))
        _ = reduce(&state, .inputFailed(.inputStopped(.alsa(device: "default"), reason: "the microphone was unplugged")))
        #expect(state.inputDiagnosis == nil)
        #expect(state.statusLine?.kind == .error)
    }

    /// An input that delivers nothing (`InputDiagnosis.noAudio`, from the engine's time since
    /// its last frame) is said on the status line while recording; the recording goes on, and
    /// the line clears when audio comes back.
    @Test func aStalledInputIsSaidWhileRecordingAndGoesWhenAudioReturns() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .tick(time: Self.t, snapshot: Fixtures.levels(recording: .recording, frames: 48_000)))
        let stalled = EngineSnapshot(
            channels: Array(repeating: ChannelLevel(average: -160, peak: -160), count: 2),
            recordedFrames: 48_000, recording: .recording, diagnosis: .noAudio)
        _ = reduce(&state, .tick(time: Self.t + 2.1, snapshot: stalled))
        #expect(state.statusLine == StatusMessage(
            text: "No audio from the input for 2 s: is the audio server running?", kind: .warning))
        #expect(state.recording == .recording, "the recording is kept and goes on")
        #expect(state.recordedFrames == 48_000)
        _ = reduce(&state, .tick(time: Self.t + 5, snapshot: Fixtures.levels(recording: .recording, frames: 96_000)))
        #expect(state.statusLine == nil)
        #expect(state.recordedFrames == 96_000)
    }

    /// A stall that follows another diagnosis is a new one: it takes the line from a notice
    /// once that has been readable, like any new diagnosis.
    @Test func aStallAfterAnotherDiagnosisIsANewDiagnosis() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .tick(time: Self.t, snapshot: Fixtures.mutedInput))
        _ = reduce(&state, .exported(ExportedCopy(title: "Standup notes", path: "/tmp/n.wav")))
        let stalled = EngineSnapshot(
            channels: Array(repeating: ChannelLevel(average: -160, peak: -160), count: 2), diagnosis: .noAudio)
        _ = reduce(&state, .tick(time: Self.t + 1, snapshot: stalled))
        #expect(state.inputDiagnosisSince == Self.t + 1)
        #expect(state.statusLine?.kind == .info, "the notice is still being read")
        _ = reduce(&state, .tick(time: Self.t + 2, snapshot: stalled))
        #expect(state.inputDiagnosisSince == Self.t + 1, "the same stall, not a new one")
        _ = reduce(&state, .tick(time: Self.t + 3, snapshot: stalled))
        #expect(state.statusLine?.text == InputDiagnosis.noAudio.message)
    }

    @Test func theStallMessageFitsAnEightyColumnLine() {
        #expect(DisplayWidth.of(" " + InputDiagnosis.noAudio.message) <= 78)
        let stalled = EngineSnapshot(
            channels: Array(repeating: ChannelLevel(average: -160, peak: -160), count: 2),
            recordedFrames: 48_000 * 3, recording: .recording, diagnosis: .noAudio)
        let state = Fixtures.state(width: 80, height: 24, [.tick(time: Self.t + 1, snapshot: stalled)])
        #expect(state.layout.status?.height == 1)
        assertSnapshot(AppView.render(state), named: "diagnosis-no-audio-recording-80x24")
        for (width, height) in [(1, 1), (12, 4), (30, 8)] {
            let small = Fixtures.state(width: width, height: height, [.tick(time: Self.t + 1, snapshot: stalled)])
            let screen = AppView.render(small)
            #expect(screen.width == width && screen.height == height)
        }
    }

    /// Where the message does not fit one line it wraps onto a second status line on a tall
    /// enough terminal, else it is cut at a word with " …"; never cut mid-cell or run into
    /// the footer.
    @Test(arguments: [(30, 18, 2), (52, 10, 1)])
    func aNarrowScreenFitsTheMessage(width: Int, height: Int, statusRows: Int) {
        let quiet = EngineSnapshot(
            channels: Array(repeating: ChannelLevel(average: -46, peak: -38), count: 2), diagnosis: .tooQuiet)
        let state = Fixtures.state(width: width, height: height, [.tick(time: Self.t + 1, snapshot: quiet)])
        #expect(state.layout.status?.height == statusRows)
        assertSnapshot(AppView.render(state), named: "diagnosis-too-quiet-\(width)x\(height)")
    }
}
