import Glibc
import Testing

@testable import Metering

/// PPM (IEC 60268-10 types I and II) and VU (IEC 60268-17) ballistics against their specified
/// figures, with synthesised tone bursts; time is the audio itself, so nothing is timed.
@Suite struct BallisticMeterTests {
    static let rate = 48_000

    /// `seconds` of a sine at `decibels` dBFS (peak), starting at a zero crossing.
    static func tone(frequency: Double = 5_000, decibels: Double = 0, seconds: Double, rate: Int = rate) -> [Float] {
        let amplitude = Decibels.toAmplitude(decibels)
        let frames = Int((seconds * Double(rate)).rounded())
        return (0..<frames).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
    }

    static func silence(seconds: Double, rate: Int = rate) -> [Float] {
        Array(repeating: 0, count: Int((seconds * Double(rate)).rounded()))
    }

    /// The highest PPM reading for `signal` (mono), from a meter at rest.
    static func highestReading(_ kind: PeakProgrammeMeter.Kind, _ signal: [Float], rate: Int = rate) -> Float {
        var meter = PeakProgrammeMeter(kind: kind, channels: 1, sampleRate: rate)
        signal.withUnsafeBufferPointer { meter.consume($0) }
        return meter.read()[0]
    }

    /// How far below the steady reading a burst of `milliseconds` reads, in dB.
    static func burstReading(_ kind: PeakProgrammeMeter.Kind, milliseconds: Double, frequency: Double = 5_000, rate: Int = rate) -> Float {
        let burst = tone(frequency: frequency, decibels: -10, seconds: milliseconds / 1000, rate: rate) + silence(seconds: 0.1, rate: rate)
        let steady = highestReading(kind, tone(frequency: frequency, decibels: -10, seconds: 1, rate: rate), rate: rate)
        return highestReading(kind, burst, rate: rate) - steady
    }

    // MARK: PPM

    @Test(arguments: PeakProgrammeMeter.Kind.allCases, [100.0, 1_000, 5_000])
    func steadySineReadsItsPeakLevel(kind: PeakProgrammeMeter.Kind, frequency: Double) {
        let reading = Self.highestReading(kind, Self.tone(frequency: frequency, decibels: -12, seconds: 1))
        #expect(abs(reading - -12) < 0.1, "\(kind) at \(frequency) Hz read \(reading)")
    }

    @Test(arguments: [5_000.0, 1_000])
    func typeIBurstsReadTheirStandardLevels(frequency: Double) {
        // IEC 60268-10 type I: integration time 5 ms (−2 dB); a 10 ms burst reads −1 dB.
        #expect(abs(Self.burstReading(.typeI, milliseconds: 5, frequency: frequency) - -2) < 0.5)
        #expect(abs(Self.burstReading(.typeI, milliseconds: 10, frequency: frequency) - -1) < 0.5)
        #expect(abs(Self.burstReading(.typeI, milliseconds: 100, frequency: frequency)) < 0.5)
        // Much shorter bursts read far lower: it is a quasi-peak meter.
        #expect(Self.burstReading(.typeI, milliseconds: 0.5, frequency: frequency) < -8)
    }

    @Test(arguments: [5_000.0, 1_000])
    func typeIIBurstsReadTheirStandardLevels(frequency: Double) {
        // IEC 60268-10 type II: integration time 10 ms (−2 dB); a 5 ms burst reads −4 dB.
        #expect(abs(Self.burstReading(.typeII, milliseconds: 10, frequency: frequency) - -2) < 0.5)
        #expect(abs(Self.burstReading(.typeII, milliseconds: 5, frequency: frequency) - -4) < 0.75)
        #expect(abs(Self.burstReading(.typeII, milliseconds: 100, frequency: frequency)) < 0.5)
        #expect(Self.burstReading(.typeII, milliseconds: 0.5, frequency: frequency) < -12)
    }

    @Test(arguments: [44_100, 96_000])
    func burstFiguresHoldAtOtherRates(rate: Int) {
        #expect(abs(Self.burstReading(.typeI, milliseconds: 5, rate: rate) - -2) < 0.5)
        #expect(abs(Self.burstReading(.typeII, milliseconds: 10, rate: rate) - -2) < 0.5)
    }

    /// Seconds the indication takes to fall `decibels` below its steady reading after the tone stops.
    static func returnTime(_ kind: PeakProgrammeMeter.Kind, decibels: Float) -> Double {
        var meter = PeakProgrammeMeter(kind: kind, channels: 1, sampleRate: rate)
        Self.tone(frequency: 1_000, decibels: 0, seconds: 1).withUnsafeBufferPointer { meter.consume($0) }
        let steady = meter.indication(channel: 0)
        // Step in 1 ms blocks: a reading every millisecond is resolution enough.
        let block = Self.silence(seconds: 0.001)
        for step in 1...10_000 {
            block.withUnsafeBufferPointer { meter.consume($0) }
            if meter.indication(channel: 0) <= steady - decibels { return Double(step) / 1000 }
        }
        return .infinity
    }

    @Test func typeIReturnsTwentyDecibelsInOnePointSevenSeconds() {
        // IEC 60268-10 type I: 1.7 ± 0.3 s.
        let time = Self.returnTime(.typeI, decibels: 20)
        #expect(abs(time - 1.7) < 0.05, "took \(time) s")
    }

    @Test func typeIIReturnsTwentyFourDecibelsInTwoPointEightSeconds() {
        let time = Self.returnTime(.typeII, decibels: 24)
        #expect(abs(time - 2.8) < 0.05, "took \(time) s")
        // The return is straight in dB: half the fall in half the time.
        #expect(abs(Self.returnTime(.typeII, decibels: 12) - 1.4) < 0.05)
    }

    @Test func readHoldsTheHighestIndicationBetweenReads() {
        var meter = PeakProgrammeMeter(kind: .typeII, channels: 1, sampleRate: Self.rate)
        let signal = Self.tone(frequency: 1_000, decibels: -6, seconds: 0.2) + Self.silence(seconds: 0.5)
        signal.withUnsafeBufferPointer { meter.consume($0) }
        // The tone ended 0.5 s ago, but the highest indication since the last read was its level.
        #expect(abs(meter.read()[0] - -6) < 0.2)
        // Afterwards the reading starts from the falling indication.
        let next = meter.read()[0]
        #expect(abs(next - meter.indication(channel: 0)) < 0.01)
        #expect(next < -9)
    }

    @Test func channelsAreIndependentAndBuffersMaySplitFrames() {
        // Left a −6 dB tone, right silent; fed in odd-sized pieces that split frames.
        let left = Self.tone(frequency: 1_000, decibels: -6, seconds: 0.5)
        var interleaved: [Float] = []
        for sample in left { interleaved += [sample, 0] }
        var meter = PeakProgrammeMeter(kind: .typeI, channels: 2, sampleRate: Self.rate)
        var start = 0
        while start < interleaved.count {
            let end = min(start + 333, interleaved.count)
            interleaved[start..<end].withUnsafeBufferPointer { meter.consume($0) }
            start = end
        }
        let readings = meter.read()
        #expect(abs(readings[0] - -6) < 0.1)
        #expect(readings[1] == Decibels.floor)
    }

    @Test func integerSamplesReadLikeFloats() {
        let float = Self.tone(frequency: 1_000, decibels: -20, seconds: 0.3)
        let int16 = float.map { Int16(($0 * 32767).rounded()) }
        let int32 = float.map { Int32((Double($0) * 2_147_483_000).rounded()) }
        var a = PeakProgrammeMeter(kind: .typeI, channels: 1, sampleRate: Self.rate)
        var b = a
        var c = a
        float.withUnsafeBufferPointer { a.consume($0) }
        int16.withUnsafeBufferPointer { b.consume($0) }
        int32.withUnsafeBufferPointer { c.consume($0) }
        let reference = a.read()[0]
        #expect(abs(b.read()[0] - reference) < 0.01)
        #expect(abs(c.read()[0] - reference) < 0.01)
    }

    @Test func badSamplesDoNotPoisonTheMeter() {
        var meter = PeakProgrammeMeter(kind: .typeI, channels: 1, sampleRate: Self.rate)
        let bad: [Float] = [.nan, .infinity, -.infinity] + Self.silence(seconds: 0.01)
        bad.withUnsafeBufferPointer { meter.consume($0) }
        // Infinity reads as full scale, NaN as 0: the reading is finite and at most 0 dBFS.
        let reading = meter.read()[0]
        #expect(reading.isFinite && reading <= 0.01)
    }

    // MARK: VU

    /// The VU needle's deflection (1.0 = a full-scale sine) every millisecond of `signal`.
    static func deflections(_ signal: [Float], channels: Int = 1) -> [Float] {
        var meter = VolumeUnitMeter(channels: 1, sampleRate: rate)
        let block = rate / 1000
        return stride(from: 0, to: signal.count, by: block).map { start in
            signal[start..<min(start + block, signal.count)].withUnsafeBufferPointer { meter.consume($0) }
            return meter.deflection(channel: 0)
        }
    }

    @Test(arguments: [100.0, 1_000, 5_000])
    func vuSteadySineReadsItsRMSLevel(frequency: Double) {
        var meter = VolumeUnitMeter(channels: 1, sampleRate: Self.rate)
        Self.tone(frequency: frequency, decibels: -12, seconds: 2).withUnsafeBufferPointer { meter.consume($0) }
        // −12 dBFS peak is −15.01 dBFS RMS, the level meter's average for the same sine.
        #expect(abs(meter.read()[0] - -15.01) < 0.1, "read \(meter.read()[0])")
    }

    @Test func vuRisesToNinetyNinePercentInThreeHundredMilliseconds() {
        let readings = Self.deflections(Self.tone(frequency: 1_000, seconds: 1))
        let crossing = readings.firstIndex { $0 >= 0.99 }.map { Double($0 + 1) / 1000 } ?? .infinity
        // IEC 60268-17: 300 ms; ±10 % tolerance.
        #expect(abs(crossing - 0.3) < 0.03, "99 % at \(crossing) s")
        let overshoot = (readings.max() ?? 0) - 1
        #expect(overshoot >= 0.01 && overshoot <= 0.015, "overshoot \(overshoot)")
        #expect(abs(readings.last! - 1) < 0.002)
    }

    @Test func vuFallsNinetyNinePercentInThreeHundredMilliseconds() {
        let readings = Self.deflections(Self.tone(frequency: 1_000, seconds: 1) + Self.silence(seconds: 1))
        let fall = readings[1000...].firstIndex { $0 <= 0.01 }.map { Double($0 + 1 - 1000) / 1000 } ?? .infinity
        #expect(abs(fall - 0.3) < 0.03, "1 % left after \(fall) s")
        // It swings a little below rest, as a needle does, and reads the floor there.
        var meter = VolumeUnitMeter(channels: 1, sampleRate: Self.rate)
        (Self.tone(frequency: 1_000, seconds: 1) + Self.silence(seconds: 0.45)).withUnsafeBufferPointer { meter.consume($0) }
        #expect(meter.deflection(channel: 0) < 0)
        #expect(meter.read()[0] == Decibels.floor)
    }

    @Test func vuBurstsReadLowAsTheStandardsNeedleDoes() {
        // A 100 ms burst leaves the needle well short of the steady reading; ≥ 300 ms reaches it.
        let short = Self.deflections(Self.tone(frequency: 1_000, seconds: 0.1) + Self.silence(seconds: 0.5)).max() ?? 0
        #expect(short < 0.6)
        let long = Self.deflections(Self.tone(frequency: 1_000, seconds: 0.5) + Self.silence(seconds: 0.5)).max() ?? 0
        #expect(long > 0.99)
    }
}
