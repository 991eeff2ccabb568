import TestSupport
import Glibc
import Testing

@testable import Metering

/// True peak against EBU Tech 3341 cases 15–19 (a sine at a quarter of the sample rate, whose
/// samples miss its crests by a phase-dependent amount) and the interpolator's design.
@Suite struct TruePeakMeterTests {
    /// The sine period in samples for the Tech 3341 cases at `rate`: fs/4 below 96 kHz; where
    /// the meter oversamples ×2, fs/8 (12 kHz at 96 kHz, as the 48 kHz case), so the
    /// oversampled signal has the same 16 points per period.
    static func period(rate: Int) -> Double {
        Double(4 * TruePeakMeter.oversamplingFactor(sampleRate: 48_000) / TruePeakMeter.oversamplingFactor(sampleRate: rate))
    }

    static func measure(_ signal: [Float], rate: Int) -> TruePeakMeter {
        var meter = TruePeakMeter(channels: 2, sampleRate: rate)
        meter.consume(signal)
        return meter
    }

    @Test(arguments: loudnessTestRates + [88_200, 192_000], [0.0, 45, 60, 67.5])
    func halfScaleQuarterRateSineReadsMinus6dBTP(rate: Int, phase: Double) {
        let signal = LoudnessTestSignals.sine(
            amplitude: 0.5, period: Self.period(rate: rate), phaseDegrees: phase, frames: rate)
        let level = Double(Self.measure(signal, rate: rate).truePeakLevel)
        #expect(level <= -6.02 + 0.2 && level >= -6.02 - 0.4, "\(level) dBTP")
        #expect(abs(level - -6.02) < 0.1, "tighter than Tech 3341 asks: \(level) dBTP")
    }

    /// An fs/4 sine at 45° puts its crest halfway between samples, which ×4 and ×2 both reach.
    @Test(arguments: loudnessTestRates)
    func overFullScaleSineReadsPlus3dBTP(rate: Int) {
        let signal = LoudnessTestSignals.sine(amplitude: 1.41, period: 4, phaseDegrees: 45, frames: rate)
        let meter = Self.measure(signal, rate: rate)
        let level = Double(meter.truePeakLevel)
        #expect(abs(level - 20 * log10(1.41)) < 0.2, "\(level) dBTP")
        #expect(meter.samplePeakLevel < 0, "no sample reaches full scale")
    }

    /// At 45° every sample of an fs/4 sine sits at ±A/√2, 3.01 dB below the crest the
    /// interpolator must find.
    @Test func findsTheCrestBetweenSamples() {
        let signal = LoudnessTestSignals.sine(amplitude: 0.5, period: 4, phaseDegrees: 45, frames: 48_000)
        let meter = Self.measure(signal, rate: 48_000)
        #expect(abs(Double(meter.samplePeakLevel) - (-6.0206 - 3.0103)) < 0.01)
        #expect(abs(Double(meter.truePeakLevel) - -6.0206) < 0.05)
        #expect(abs(Double(meter.truePeakLevel(forChannel: 1)) - -6.0206) < 0.05)
    }

    @Test func oversamplingFactorFollowsTheRate() {
        #expect(TruePeakMeter.oversamplingFactor(sampleRate: 44_100) == 4)
        #expect(TruePeakMeter.oversamplingFactor(sampleRate: 88_200) == 4)
        #expect(TruePeakMeter.oversamplingFactor(sampleRate: 96_000) == 2)
        #expect(TruePeakMeter.oversamplingFactor(sampleRate: 192_000) == 2)
        #expect(TruePeakMeter.oversamplingFactor(sampleRate: 384_000) == 1)
    }

    @Test func phaseZeroPassesSamplesThrough() {
        let phase = TruePeakInterpolator.phaseCoefficients(phase: 0, factor: 4)
        let centre = TruePeakInterpolator.tapsPerPhase / 2
        for (index, coefficient) in phase.enumerated() {
            #expect(coefficient == (index == centre ? 1 : 0))
        }
    }

    /// Runs of three full-scale samples in one channel (`ClipRule`), not full-scale samples:
    /// the left channel's run of three is a clip; the right's full-scale samples, two apart, are none.
    @Test func countsClipsPerChannelAndReadsSilence() {
        var meter = TruePeakMeter(channels: 2, sampleRate: 48_000)
        #expect(meter.truePeakLevel == -160)
        let samples: [Int16] = [32767, 0, -32768, 32767, 32767, 100, 0, 32767]
        samples.withUnsafeBufferPointer { meter.consume($0) }
        #expect(meter.clipCount == 1)
        #expect(meter.samplePeakLevel == 0)
        #expect(meter.truePeakLevel >= 0)
    }

    @Test func buffersSplitMidFrameGiveTheSameReading() {
        let signal = LoudnessTestSignals.sine(amplitude: 0.7, period: 9.3, phaseDegrees: 10, frames: 5_000)
        let whole = Self.measure(signal, rate: 48_000)
        var split = TruePeakMeter(channels: 2, sampleRate: 48_000)
        split.consume(signal, bufferSize: 7)
        #expect(split.truePeakLevel == whole.truePeakLevel)
        #expect(split.truePeakLevel(forChannel: 0) == whole.truePeakLevel(forChannel: 0))
    }

    @Test func badSamplesReadAsTheLevelMeterReadsThem() {
        var meter = TruePeakMeter(channels: 1, sampleRate: 48_000)
        let samples: [Float] = [0.1, .nan, 0.2, .infinity, -0.3, -.infinity, 1, 2.5]
        samples.withUnsafeBufferPointer { meter.consume($0) }
        #expect(meter.samplePeakLevel == 0)
        #expect(meter.clipCount == 1, "one lone full-scale sample, then a run of three over-range ones")
        #expect(meter.truePeakLevel.isFinite)
    }
}
