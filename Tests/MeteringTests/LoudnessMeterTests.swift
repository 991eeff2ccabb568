import TestSupport
import Testing

@testable import Metering

/// EBU Tech 3341 (loudness) cases, synthesised, at 44.1, 48 and 96 kHz.
///
/// A level is each channel's sine peak, as in Tech 3341: a stereo 1 kHz sine at −23 dBFS has a
/// mean square of −26.01 dB per channel; K-weighting adds +0.698 dB at 1 kHz, two channels add
/// 3.010 dB and BS.1770 subtracts 0.691 dB, so it reads −23.0 LUFS (−22.99 precisely).
@Suite struct LoudnessMeterTests {
    typealias Segment = LoudnessTestSignals.Segment
    static let tolerance = 0.1

    @Test(arguments: loudnessTestRates, [-23.0, -33.0])
    func steadyStereoSineReadsItsLevel(rate: Int, level: Double) throws {
        let signal = LoudnessTestSignals.sines([Segment(level: level, seconds: 20)], sampleRate: rate)
        let meter = LoudnessMeter.measuring(signal, sampleRate: rate)
        let momentary = try #require(meter.momentaryLoudness)
        let shortTerm = try #require(meter.shortTermLoudness)
        let integrated = try #require(meter.integratedLoudness)
        #expect(abs(momentary - level) < Self.tolerance, "M \(momentary)")
        #expect(abs(shortTerm - level) < Self.tolerance, "S \(shortTerm)")
        #expect(abs(integrated - level) < Self.tolerance, "I \(integrated)")
    }

    /// BS.1770 sums channels; a mono file is one channel, so the same sine reads 3 dB lower.
    /// Fixtures that expect −23 LUFS from a mono −23 dBFS sine are wrong.
    @Test(arguments: loudnessTestRates)
    func monoSineReadsThreeDecibelsBelowStereo(rate: Int) throws {
        let signal = LoudnessTestSignals.sines([Segment(level: -23, seconds: 10)], sampleRate: rate, channels: 1)
        let meter = LoudnessMeter.measuring(signal, channels: 1, sampleRate: rate)
        let integrated = try #require(meter.integratedLoudness)
        #expect(abs(integrated - -26.0) < Self.tolerance, "I \(integrated)")
    }

    /// Tech 3341 cases 3, 4 and 5: the relative gate removes the quiet parts, the absolute gate
    /// the near-silent ones.
    @Test(arguments: loudnessTestRates, [
        [Segment(level: -36, seconds: 10), Segment(level: -23, seconds: 60), Segment(level: -36, seconds: 10)],
        [
            Segment(level: -72, seconds: 10), Segment(level: -36, seconds: 10), Segment(level: -23, seconds: 60),
            Segment(level: -36, seconds: 10), Segment(level: -72, seconds: 10),
        ],
        [Segment(level: -26, seconds: 20), Segment(level: -20, seconds: 20.1), Segment(level: -26, seconds: 20)],
    ])
    func gatedCasesReadMinus23(rate: Int, segments: [Segment]) throws {
        let meter = LoudnessMeter.measuring(LoudnessTestSignals.sines(segments, sampleRate: rate), sampleRate: rate)
        let integrated = try #require(meter.integratedLoudness)
        #expect(abs(integrated - -23) < Self.tolerance, "I \(integrated)")
    }

    /// Silence is below the absolute gate, so however much of it surrounds a tone the reading
    /// stays the same. Against the bare tone it differs by the blocks that straddle the tone's
    /// edges (25–75 % tone, above the relative gate), as BS.1770 intends: −0.13 LU here.
    @Test func silenceDoesNotChangeIntegratedLoudness() throws {
        func integrated(silenceBefore: Double, after: Double) throws -> Double {
            let signal = LoudnessTestSignals.sines(
                [Segment(level: nil, seconds: silenceBefore), Segment(level: -23, seconds: 10),
                 Segment(level: nil, seconds: after)], sampleRate: 48_000)
            return try #require(LoudnessMeter.measuring(signal, sampleRate: 48_000).integratedLoudness)
        }
        let short = try integrated(silenceBefore: 1, after: 1)
        let long = try integrated(silenceBefore: 20, after: 30)
        #expect(abs(short - long) < 1e-6, "\(short) vs \(long)")
        #expect(abs(short - -23) < 0.2)
    }

    @Test func silenceHasNoIntegratedLoudness() {
        let meter = LoudnessMeter.measuring([Float](repeating: 0, count: 96_000 * 2), sampleRate: 48_000)
        #expect(meter.integratedLoudness == nil)
        #expect(meter.loudnessRange == nil)
        #expect(meter.momentaryLoudness == -.infinity)
        #expect(meter.consumedFrames == 96_000)
    }

    @Test func freshMeterHasNoReadings() {
        let meter = LoudnessMeter(channels: 2, sampleRate: 48_000)
        #expect(meter.momentaryLoudness == nil)
        #expect(meter.shortTermLoudness == nil)
        #expect(meter.integratedLoudness == nil)
        #expect(meter.maximumMomentaryLoudness == nil)
    }

    @Test func momentaryFollowsTheLatest400Milliseconds() throws {
        var meter = LoudnessMeter(channels: 2, sampleRate: 48_000)
        meter.consume(LoudnessTestSignals.sines([Segment(level: -20, seconds: 5), Segment(level: -40, seconds: 1)], sampleRate: 48_000))
        let momentary = try #require(meter.momentaryLoudness)
        let shortTerm = try #require(meter.shortTermLoudness)
        let maximum = try #require(meter.maximumMomentaryLoudness)
        #expect(abs(momentary - -40) < Self.tolerance, "M \(momentary)")
        // 2 s at −20 and 1 s at −40 LUFS: 10·log10((2 + 0.01)/3) − 20.
        #expect(abs(shortTerm - -21.74) < Self.tolerance, "S \(shortTerm)")
        #expect(abs(maximum - -20) < Self.tolerance, "max M \(maximum)")
    }

    /// A live meter without history reads momentary and short-term loudness exactly as one
    /// with history, keeps nothing that grows, and says it has no integrated figures.
    @Test func liveMeterWithoutHistoryKeepsConstantMemory() throws {
        let signal = LoudnessTestSignals.sines([Segment(level: -20, seconds: 5), Segment(level: -40, seconds: 1)], sampleRate: 48_000)
        var full = LoudnessMeter(channels: 2, sampleRate: 48_000)
        var live = LoudnessMeter(channels: 2, sampleRate: 48_000, keepsHistory: false)
        full.consume(signal)
        live.consume(signal)
        #expect(live.momentaryLoudness == full.momentaryLoudness)
        #expect(live.shortTermLoudness == full.shortTermLoudness)
        #expect(live.gatingBlockEnergies.isEmpty && live.shortTermEnergies.isEmpty)
        #expect(!full.gatingBlockEnergies.isEmpty && !full.shortTermEnergies.isEmpty)
        #expect(live.integratedLoudness == nil && live.loudnessRange == nil && live.maximumMomentaryLoudness == nil)
    }

    @Test func bufferSizesAndSampleFormatsDoNotChangeReadings() throws {
        let signal = LoudnessTestSignals.sines(
            [Segment(level: -18, seconds: 4), Segment(level: -30, seconds: 3)], sampleRate: 48_000)
        let reference = LoudnessMeter.measuring(signal, sampleRate: 48_000)
        let expected = try #require(reference.integratedLoudness)
        for size in [1, 3, 511, 4_801] {
            var meter = LoudnessMeter(channels: 2, sampleRate: 48_000)
            meter.consume(signal, bufferSize: size)
            #expect(meter.integratedLoudness.map { abs($0 - expected) < 1e-9 } == true, "buffers of \(size)")
            #expect(meter.consumedFrames == signal.count / 2)
        }
        var int16Meter = LoudnessMeter(channels: 2, sampleRate: 48_000)
        TestSignals.int16(signal.map(Double.init)).withUnsafeBufferPointer { int16Meter.consume($0) }
        var int32Meter = LoudnessMeter(channels: 2, sampleRate: 48_000)
        TestSignals.int32(signal.map(Double.init)).withUnsafeBufferPointer { int32Meter.consume($0) }
        #expect(int16Meter.integratedLoudness.map { abs($0 - expected) < 0.01 } == true)
        #expect(int32Meter.integratedLoudness.map { abs($0 - expected) < 0.001 } == true)
    }

    @Test func badSamplesDoNotPoisonTheFilters() throws {
        var signal = LoudnessTestSignals.sines([Segment(level: -23, seconds: 5)], sampleRate: 48_000)
        signal[1_000] = .nan
        signal[2_001] = .infinity
        let meter = LoudnessMeter.measuring(signal, sampleRate: 48_000)
        let integrated = try #require(meter.integratedLoudness)
        #expect(abs(integrated - -23) < Self.tolerance)
    }
}
