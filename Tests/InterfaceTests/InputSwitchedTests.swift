import TestSupport
import Testing

@testable import Interface

/// `Action.inputSwitched`: the input went away and capture went on from the default source in
/// the same recording. The status line says so until replaced; a recording keeps a marker there.
@Suite struct InputSwitchedTests {
    static let sentence = "pulse:usb_mic went away; going on from pulse:vsink.monitor (the default source) after a gap of 0.12 s"
    static let label = "pulse:usb_mic went away: 0.12 s gap, then pulse:vsink.monitor"

    @Test func whileRecordingItIsSaidAndMarked() {
        var state = Fixtures.state(width: 80, height: 24)
        state.recording = .recording
        let effects = reduce(&state, .inputSwitched(sentence: Self.sentence, markerLabel: Self.label))
        #expect(effects == [.markRecording(label: Self.label)])
        #expect(state.statusLine?.text == Self.sentence + ".")
        #expect(state.status?.kind == .error, "it stays until replaced")
    }

    @Test func whileOnlyListeningItIsSaidWithoutAMarker() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(state.recording == .idle)
        let effects = reduce(&state, .inputSwitched(sentence: Self.sentence, markerLabel: Self.label))
        #expect(effects.isEmpty)
        #expect(state.statusLine?.text == Self.sentence + ".")
    }
}
