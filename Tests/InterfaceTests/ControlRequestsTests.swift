import TestSupport
import Vocabulary
import Testing

@testable import Interface

/// `Action.control`: the control socket's requests do what the memo table's keys do, refused
/// where the keys are, whatever screen is open, with the answer left for the socket.
@Suite struct ControlRequestsTests {
    @Test func toggleStartsPauseResumesMarkLabelsAndToggleStops() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .control(.toggle)) == [.startRecording(title: "Memo 2026-11-29 14:05:10")])
        #expect(state.controlAnswer == .ok("starting a recording"))
        _ = reduce(&state, .recordingStarted(title: "Memo 2026-11-29 14:05", memoID: 7))
        _ = reduce(&state, .workFinished)
        #expect(reduce(&state, .control(.pause)) == [.pauseRecording])
        #expect(state.recording == .paused && state.controlAnswer == .ok("paused the recording"))
        #expect(reduce(&state, .control(.pause)) == [.resumeRecording])
        #expect(state.controlAnswer == .ok("resumed the recording"))
        _ = reduce(&state, .tick(time: Fixtures.now + 12, snapshot: Fixtures.levels(recording: .recording, frames: 48000 * 62)))
        #expect(reduce(&state, .control(.mark(label: "idea"))) == [.markRecording(label: "idea")])
        #expect(state.controlAnswer == .ok("marker “idea” at 00:01:02 of the recording"))
        #expect(reduce(&state, .control(.toggle)) == [.stopRecording])
        #expect(state.controlAnswer == .ok("stopping and saving “Memo 2026-11-29 14:05”"))
        #expect(state.mode == .renaming(id: 7, field: TextField("Memo 2026-11-29 14:05", maximumLength: state.titleMaximumLength, selected: true)),
                "the title prompt opens as after s")
    }

    @Test func aRequestInAPromptActsLikeTheKeyOnTheTableNotLikeTyping() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("/")))
        #expect(state.mode != .browsing, "/ opens the filter")
        #expect(reduce(&state, .control(.toggle)) == [.startRecording(title: "Memo 2026-11-29 14:05:10")])
    }

    @Test func nothingRecordingAndAKeysRefusalAreErrors() {
        var state = Fixtures.state(width: 80, height: 24)
        for request in [ControlRequest.pause, .stop, .mark(label: "")] {
            #expect(reduce(&state, .control(request)) == [])
            #expect(state.controlAnswer == .error("nothing is recording in the app"))
        }
        _ = reduce(&state, .key(.character("v")))
        #expect(state.voice.isArmed)
        #expect(reduce(&state, .control(.toggle)) == [])
        #expect(state.controlAnswer == .error(state.status?.text ?? ""), "refused as r is, with what r says")
        #expect(state.status?.text.isEmpty == false)
        var noInput = Fixtures.state(width: 80, height: 24, input: nil)
        #expect(reduce(&noInput, .control(.toggle)) == [])
        #expect(noInput.controlAnswer == .error("no input is open in the app, so there is nothing to record"))
    }
}
