import TestSupport
import Glibc
import Testing

@testable import Metering

/// Levels of known signals against theory: peak = level, average = level − 3.0103 for a sine.
@Suite struct LevelMeterSignalTests {
    static let sineToRMS = 3.0103

    @Test(arguments: SampleKind.allCases, [0.0, -6, -20, -60])
    func sineReadsItsLevel(kind: SampleKind, level: Double) {
        let samples = TestSignals.interleaved([.init(level: level, period: 48)], frames: 48_000)
        var meter = LevelMeter(channels: 1)
        meter.consume(samples, as: kind)
        meter.updateMeters()

        #expect(abs(Double(meter.averagePower(forChannel: 0)) - (level - Self.sineToRMS)) < 0.05)
        // At −60 dBFS an Int16 crest is 32.8 LSB, so rounding moves the stored peak by up to
        // 0.13 dB: the theory for the peak is the quantised crest, itself within half an LSB.
        let storedPeak = ReferenceMeter(channels: 1, samples: quantised(samples, as: kind))
            .peakPower(forChannel: 0)
        #expect(abs(Double(meter.peakPower(forChannel: 0)) - storedPeak) < 0.01)
        let halfStep = kind == .int16 ? 20 * log10(1 + 0.5 / (32768 * pow(10, level / 20))) : 0
        #expect(abs(Double(meter.peakPower(forChannel: 0)) - level) < 0.01 + halfStep)
    }

    @Test(arguments: SampleKind.allCases)
    func silenceReadsTheFloor(kind: SampleKind) {
        var meter = LevelMeter(channels: 2)
        meter.consume(Array(repeating: 0, count: 10_000), as: kind)
        meter.updateMeters()
        for channel in 0..<2 {
            #expect(meter.averagePower(forChannel: channel) == -160)
            #expect(meter.peakPower(forChannel: channel) == -160)
        }
    }

    @Test func freshMeterReadsTheFloor() {
        var meter = LevelMeter(channels: 3)
        #expect(meter.averagePower(forChannel: 0) == -160)
        meter.updateMeters()
        #expect(meter.peakPower(forChannel: 2) == -160)
    }

    @Test(arguments: SampleKind.allCases)
    func halfScaleDCReadsMinusSixDecibels(kind: SampleKind) {
        var meter = LevelMeter(channels: 1)
        meter.consume(Array(repeating: 0.5, count: 4_099), as: kind)
        meter.updateMeters()
        #expect(abs(meter.peakPower(forChannel: 0) - -6.0206) < 0.01)
        #expect(abs(meter.averagePower(forChannel: 0) - -6.0206) < 0.01)
    }

    @Test(arguments: SampleKind.allCases)
    func fullScaleSquareReadsZero(kind: SampleKind) {
        let square = (0..<9_600).map { $0 % 48 < 24 ? 1.0 : -1.0 }
        var meter = LevelMeter(channels: 2)
        meter.consume(square, as: kind)
        meter.updateMeters()
        for channel in 0..<2 {
            #expect(abs(meter.peakPower(forChannel: channel)) < 0.01)
            #expect(abs(meter.averagePower(forChannel: channel)) < 0.01)
        }
    }

    @Test func precisionHoldsOverMillionsOfSamples() {
        let samples = TestSignals.interleaved([.init(level: -60, period: 48)], frames: 4_800_000)
        var meter = LevelMeter(channels: 1)
        meter.consume(samples, as: .float)
        meter.updateMeters()
        #expect(abs(Double(meter.averagePower(forChannel: 0)) - (-60 - Self.sineToRMS)) < 0.001)
    }
}
