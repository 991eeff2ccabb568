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

    static func samples(_ frames: Range<Int>) -> Range<Int> {
        (frames.lowerBound * frame)..<(frames.upperBound * frame)
    }

    /// A run of speech between long stretches of non-speech is decoded with 0.3 s on each side.
    @Test func aRunOfSpeechIsDecodedWithItsMargins() {
        var gate = Self.gate([(false, 300), (true, 10), (false, 300)])
        #expect(gate.stretches(start: 0, count: 610 * Self.frame) == [Self.samples(270..<340)])
    }

    /// An utterance without speech is not decoded at all.
    @Test func anUtteranceWithoutSpeechIsSkipped() {
        var gate = Self.gate([(false, 500)])
        #expect(gate.stretches(start: 0, count: 500 * Self.frame).isEmpty)
    }

    /// Non-speech under 2 s beyond the margins is decoded, at the edges as inside: an utterance of
    /// speech with its pauses is decoded whole.
    @Test func shortNonSpeechIsDecoded() {
        var edges = Self.gate([(false, 150), (true, 10), (false, 150)])
        #expect(edges.stretches(start: 0, count: 310 * Self.frame) == [Self.samples(0..<310)])
        var inside = Self.gate([(false, 300), (true, 10), (false, 250), (true, 10), (false, 300)])
        #expect(inside.stretches(start: 0, count: 870 * Self.frame) == [Self.samples(270..<600)])
        var apart = Self.gate([(false, 300), (true, 10), (false, 300), (true, 10), (false, 300)])
        #expect(apart.stretches(start: 0, count: 920 * Self.frame) == [Self.samples(270..<340), Self.samples(580..<650)])
    }

    /// Stretches are in samples of their own utterance, and stop at its edges; a later utterance
    /// reads the frames after the earlier one's end.
    @Test func stretchesAreWithinTheirUtterance() {
        var gate = Self.gate([(false, 390), (true, 20), (false, 400)])
        #expect(gate.stretches(start: 0, count: 400 * Self.frame) == [Self.samples(360..<400)])
        #expect(gate.stretches(start: 400 * Self.frame, count: 410 * Self.frame) == [Self.samples(0..<40)])
    }

    /// The stream's last, partial frame is decoded only inside a margin.
    @Test func aPartialLastFrameFollowsItsNeighbours() {
        var gate = Self.gate([(false, 250), (true, 10)])
        let count = 260 * Self.frame + 80
        #expect(gate.stretches(start: 0, count: count) == [(220 * Self.frame)..<count])
    }
}
