import TestSupport
import Testing

@testable import Metering

/// EBU Tech 3342 (loudness range) cases 1–4, synthesised: stereo 1 kHz sines, 20 s segments.
@Suite struct LoudnessRangeTests {
    typealias Segment = LoudnessTestSignals.Segment

    /// One Tech 3342 case: the levels of successive 20 s segments and the expected range.
    struct RangeCase: Sendable, CustomTestStringConvertible {
        var levels: [Double]
        var expected: Double
        var testDescription: String { "\(levels) → \(expected) LU" }
    }

    @Test(arguments: loudnessTestRates, [
        RangeCase(levels: [-20, -30], expected: 10), RangeCase(levels: [-20, -15], expected: 5),
        RangeCase(levels: [-40, -20], expected: 20), RangeCase(levels: [-50, -35, -20, -35, -50], expected: 15),
    ])
    func steppedSinesSpanTheirRange(rate: Int, rangeCase: RangeCase) throws {
        let expected = rangeCase.expected
        let segments = rangeCase.levels.map { Segment(level: $0, seconds: 20) }
        let meter = LoudnessMeter.measuring(LoudnessTestSignals.sines(segments, sampleRate: rate), sampleRate: rate)
        let range = try #require(meter.loudnessRange)
        #expect(abs(range - expected) < 1, "LRA \(range)")
    }

    @Test func steadyToneHasNoRange() throws {
        let signal = LoudnessTestSignals.sines([Segment(level: -23, seconds: 20)], sampleRate: 48_000)
        let range = try #require(LoudnessMeter.measuring(signal, sampleRate: 48_000).loudnessRange)
        #expect(abs(range) < 0.1)
    }

    @Test func shorterThanAShortTermWindowHasNoRange() {
        let signal = LoudnessTestSignals.sines([Segment(level: -23, seconds: 2.9)], sampleRate: 48_000)
        #expect(LoudnessMeter.measuring(signal, sampleRate: 48_000).loudnessRange == nil)
    }
}

/// BS.1770-4 channel weights up to 5.1.
@Suite struct LoudnessChannelWeightTests {
    typealias Segment = LoudnessTestSignals.Segment

    @Test func standardWeights() {
        #expect(LoudnessMeter.standardChannelWeights(channels: 1) == [1])
        #expect(LoudnessMeter.standardChannelWeights(channels: 2) == [1, 1])
        #expect(LoudnessMeter.standardChannelWeights(channels: 5) == [1, 1, 1, 1.41, 1.41])
        #expect(LoudnessMeter.standardChannelWeights(channels: 6) == [1, 1, 1, 0, 1.41, 1.41])
    }

    /// 5.1: a tone on the LFE channel is not measured; on a surround channel it counts 1.5 dB
    /// more than on a front channel.
    @Test func lowFrequencyEffectsIsLeftOutAndSurroundsWeighMore() throws {
        func integrated(on channel: Int) -> Double? {
            let signal = LoudnessTestSignals.sines(
                [Segment(level: -20, seconds: 5)], sampleRate: 48_000, channels: 6, soundingChannels: [channel])
            return LoudnessMeter.measuring(signal, channels: 6, sampleRate: 48_000).integratedLoudness
        }
        let front = try #require(integrated(on: 0))
        let centre = try #require(integrated(on: 2))
        let surround = try #require(integrated(on: 5))
        #expect(integrated(on: 3) == nil, "LFE")
        #expect(abs(front - -23) < 0.1)
        #expect(abs(centre - front) < 1e-9)
        #expect(abs(surround - front - 1.492) < 0.001, "10·log10(1.41)")
    }
}
