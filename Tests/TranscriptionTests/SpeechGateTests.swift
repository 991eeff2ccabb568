import Testing
@testable import Transcription

/// The stretches `SpeechGate` hands the recogniser, from frame judgements given directly.
@Suite struct SpeechGateTests {
    static let frame = PauseSegmenter.frameLength

    static func gate(_ runs: [(speech: Bool, frames: Int)]) -> SpeechGate {
        var gate = SpeechGate()
        for run in runs {
            for _ in 0..<run.frames { gate.record(isSpeech: run.speech) }
        }
        return gate
    }

    /// A run of speech is decoded with 0.3 s on each side, and nothing else.
    @Test func aRunOfSpeechIsDecodedWithItsMargins() {
        var gate = Self.gate([(false, 100), (true, 10), (false, 300)])
        let stretches = gate.stretches(start: 0, count: 410 * Self.frame)
        #expect(stretches == [(70 * Self.frame)..<(140 * Self.frame)])
    }

    /// An utterance without speech is not decoded at all.
    @Test func anUtteranceWithoutSpeechIsSkipped() {
        var gate = Self.gate([(false, 500)])
        #expect(gate.stretches(start: 0, count: 500 * Self.frame).isEmpty)
    }

    /// Runs under 1 s apart (margins included) are one stretch; further apart, two.
    @Test func nearbyRunsAreJoinedAndDistantOnesAreNot() {
        var near = Self.gate([(true, 10), (false, 150), (true, 10), (false, 100)])
        #expect(near.stretches(start: 0, count: 270 * Self.frame) == [0..<(200 * Self.frame)])
        var far = Self.gate([(true, 10), (false, 200), (true, 10), (false, 100)])
        #expect(far.stretches(start: 0, count: 320 * Self.frame) == [0..<(40 * Self.frame), (180 * Self.frame)..<(250 * Self.frame)])
    }

    /// Stretches are in samples of their own utterance, and stop at its edges; a later utterance
    /// reads the frames after the earlier one's end.
    @Test func stretchesAreWithinTheirUtterance() {
        var gate = Self.gate([(false, 190), (true, 20), (false, 200)])
        #expect(gate.stretches(start: 0, count: 200 * Self.frame) == [(160 * Self.frame)..<(200 * Self.frame)])
        #expect(gate.stretches(start: 200 * Self.frame, count: 210 * Self.frame) == [0..<(40 * Self.frame)])
    }

    /// The stream's last, partial frame is decoded only inside a margin.
    @Test func aPartialLastFrameFollowsItsNeighbours() {
        var gate = Self.gate([(false, 50), (true, 10)])
        let count = 60 * Self.frame + 80
        #expect(gate.stretches(start: 0, count: count) == [(20 * Self.frame)..<count])
    }
}
