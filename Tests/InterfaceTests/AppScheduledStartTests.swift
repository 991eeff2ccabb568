import TestSupport
import Testing

@testable import Interface

/// `voicememo --at TIME [--duration T]`: the header counts down to the start, the loop's
/// `scheduleReached` starts the recording (and stops it after its duration), `r` starts it at
/// once and `s` cancels it.
@Suite struct AppScheduledStartTests {
    static let start = Fixtures.now + 70

    static func waiting(duration: Double? = nil, width: Int = 80, height: Int = 24, input: InputDescription? = Fixtures.input) -> AppState {
        var state = Fixtures.state(width: width, height: height, input: input)
        state.scheduled = ScheduledRecording(start: start, duration: duration, label: "14:00")
        return state
    }

    @Test func theHeaderCountsDownAndTheStatusLineSaysWhatTheKeysDo() {
        let state = Self.waiting(duration: 2700)
        let header = AppView.render(state).lines()[0]
        #expect(header.hasSuffix("starts 14:00 in  00:01:00 "), "\(header)")
        #expect(state.statusLine?.text == "Recording starts at 14:00 for 00:45:00; r starts it now, s cancels.")
        assertSnapshot(AppView.render(state), named: "scheduled-80x24")
        assertSnapshot(AppView.render(Self.waiting(width: 40, height: 12)), named: "scheduled-40x12")
    }

    @Test func itStartsWhenItsTimeComesAndStopsAfterItsDuration() {
        var state = Self.waiting(duration: 2)
        #expect(!state.scheduleIsDue(at: Self.start - 0.1))
        #expect(state.scheduleIsDue(at: Self.start))
        let effects = reduce(&state, .scheduleReached(time: Self.start))
        #expect(effects.contains { if case .startRecording = $0 { true } else { false } }, "\(effects)")
        #expect(state.scheduled == nil && state.scheduledStop == 2)
        _ = reduce(&state, .recordingStarted(title: "Memo", memoID: 20))
        _ = reduce(&state, .tick(time: Self.start + 1, snapshot: Fixtures.levels(recording: .recording, frames: 48_000)))
        #expect(!state.scheduleIsDue(at: Self.start + 1))
        _ = reduce(&state, .tick(time: Self.start + 2, snapshot: Fixtures.levels(recording: .recording, frames: 96_000)))
        #expect(state.scheduleIsDue(at: Self.start + 2))
        let stop = reduce(&state, .scheduleReached(time: Self.start + 2))
        #expect(stop.contains(.stopRecording), "\(stop)")
        #expect(state.scheduledStop == nil)
    }

    @Test func rStartsItNowWithItsDurationAndSCancelsIt() {
        var state = Self.waiting(duration: 60)
        let effects = reduce(&state, .key(.character("r")))
        #expect(effects.contains { if case .startRecording = $0 { true } else { false } })
        #expect(state.scheduled == nil && state.scheduledStop == 60)
        var waiting = Self.waiting()
        #expect(reduce(&waiting, .key(.character("s"))).isEmpty)
        #expect(waiting.scheduled == nil)
        #expect(waiting.statusLine?.text == "The recording scheduled for 14:00 is cancelled.")
        #expect(!AppView.render(waiting).lines()[0].contains("starts"))
    }

    @Test func withoutAnInputItSaysWhyItDidNotStart() {
        var state = Self.waiting(input: nil)
        #expect(reduce(&state, .scheduleReached(time: Self.start)).isEmpty)
        #expect(state.scheduled == nil)
        #expect(state.statusLine?.text == "The recording scheduled for 14:00 did not start: no input is open.")
    }
}
