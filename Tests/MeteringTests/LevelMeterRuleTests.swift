import Glibc
import Testing

@testable import Metering

/// NaN and infinity rules, snapshots, out-of-range channels and full-scale runs.
@Suite struct LevelMeterRuleTests {
    /// 4,000 samples at 0.25 in one channel, with `odd` replacing sample `position`.
    static func stream(with odd: Float, at position: Int) -> [Float] {
        var samples = Array(repeating: Float(0.25), count: 4_000)
        samples[position] = odd
        return samples
    }

    @Test(arguments: [0, 9, 2_047, 3_999])
    func nanCountsAsSilence(position: Int) {
        var meter = LevelMeter(channels: 1)
        meter.consume(Self.stream(with: .nan, at: position))
        meter.updateMeters()
        let expectedAverage = 10 * log10Reference(0.0625 * 3_999 / 4_000)
        #expect(abs(meter.averagePower(forChannel: 0) - expectedAverage) < 0.001)
        #expect(abs(meter.peakPower(forChannel: 0) - -12.0412) < 0.001)
        #expect(!meter.averagePower(forChannel: 0).isNaN)
    }

    @Test(arguments: [Float.infinity, -.infinity, 1e30, -7, .greatestFiniteMagnitude])
    func overRangeCountsAsFullScale(odd: Float) {
        var meter = LevelMeter(channels: 1)
        meter.consume(Self.stream(with: odd, at: 1_000))
        meter.updateMeters()
        #expect(meter.peakPower(forChannel: 0) == 0)
        let expectedAverage = 10 * log10Reference((0.0625 * 3_999 + 1) / 4_000)
        #expect(abs(meter.averagePower(forChannel: 0) - expectedAverage) < 0.001)
        #expect(meter.longestFullScaleRun(forChannel: 0) == 1)
    }

    @Test func onlyNaNReadsTheFloor() {
        var meter = LevelMeter(channels: 2)
        meter.consume(Array(repeating: Float.nan, count: 1_000))
        meter.updateMeters()
        #expect(meter.averagePower(forChannel: 0) == -160)
        #expect(meter.peakPower(forChannel: 1) == -160)
    }

    @Test func updateMetersStartsANewInterval() {
        var meter = LevelMeter(channels: 1)
        meter.consume(Array(repeating: Float(1), count: 100))
        meter.updateMeters()
        #expect(meter.peakPower(forChannel: 0) == 0)
        meter.consume(Array(repeating: Float(0.5), count: 100))
        meter.updateMeters()
        #expect(abs(meter.peakPower(forChannel: 0) - -6.0206) < 0.001)
        #expect(abs(meter.averagePower(forChannel: 0) - -6.0206) < 0.001)
        meter.updateMeters()
        #expect(meter.peakPower(forChannel: 0) == -160)
        #expect(meter.averagePower(forChannel: 0) == -160)
    }

    @Test(arguments: [-1, 2, 99, Int.min, Int.max])
    func channelOutOfRangeReadsTheFloor(channel: Int) {
        var meter = LevelMeter(channels: 2)
        meter.consume(Array(repeating: Float(1), count: 10))
        meter.updateMeters()
        #expect(meter.averagePower(forChannel: channel) == -160)
        #expect(meter.peakPower(forChannel: channel) == -160)
        #expect(meter.longestFullScaleRun(forChannel: channel) == 0)
    }

    @Test func meterIsAValue() {
        var original = LevelMeter(channels: 1)
        original.consume(Array(repeating: Float(0.5), count: 10))
        var copy = original
        copy.consume(Array(repeating: Float(1), count: 10))
        original.updateMeters()
        copy.updateMeters()
        #expect(abs(original.peakPower(forChannel: 0) - -6.0206) < 0.001)
        #expect(copy.peakPower(forChannel: 0) == 0)
    }

    @Test func fullScaleThresholdPerFormat() {
        var int16Meter = LevelMeter(channels: 1)
        int16Meter.consume([Int16.max, .min, -32_767, 32_766], splitSizes: [4])
        int16Meter.updateMeters()
        #expect(int16Meter.longestFullScaleRun(forChannel: 0) == 3)

        var int32Meter = LevelMeter(channels: 1)
        int32Meter.consume([0x7FFF_FF00, Int32.min, Int32.max, 0x7FFF_FE00], splitSizes: [4])
        int32Meter.updateMeters()
        #expect(int32Meter.longestFullScaleRun(forChannel: 0) == 3)

        var floatMeter = LevelMeter(channels: 1)
        floatMeter.consume([1, -1, 0.99999994, 1], splitSizes: [4])
        floatMeter.updateMeters()
        #expect(floatMeter.longestFullScaleRun(forChannel: 0) == 2)
    }

    /// Full-scale samples at the given positions of a long mono Int16 stream of quiet noise.
    static func clipStream(fullScaleAt positions: [Int]) -> [Int16] {
        var samples = (0..<10_000).map { Int16($0 % 200 - 100) }
        for position in positions { samples[position] = position % 2 == 0 ? .max : .min }
        return samples
    }

    @Test(arguments: [[Int.max], [1], [4_096], [4_095, 1], [2_049], [7, 3]])
    func runsAreCountedAcrossBuffers(splitSizes: [Int]) {
        var meter = LevelMeter(channels: 1)
        meter.consume(Self.clipStream(fullScaleAt: [4_094, 4_095, 4_096]), splitSizes: splitSizes)
        meter.updateMeters()
        #expect(meter.longestFullScaleRun(forChannel: 0) == 3)
    }

    @Test func runsAreCountedPerChannelInInterleavedAudio() {
        // Stereo: left clips at frames 10, 11, 12; right clips at frames 20, 22, 24.
        var samples = Array(repeating: Float(0.1), count: 6_000)
        for frame in [10, 11, 12] { samples[2 * frame] = 1 }
        for frame in [20, 22, 24] { samples[2 * frame + 1] = -1 }
        var meter = LevelMeter(channels: 2)
        meter.consume(samples, splitSizes: [21, 1, 2_000])
        meter.updateMeters()
        #expect(meter.longestFullScaleRun(forChannel: 0) == 3)
        #expect(meter.longestFullScaleRun(forChannel: 1) == 1)
    }

    @Test func runContinuesAcrossSnapshots() {
        var meter = LevelMeter(channels: 1)
        meter.consume([Float(0), 1, 1], splitSizes: [3])
        meter.updateMeters()
        #expect(meter.longestFullScaleRun(forChannel: 0) == 2)
        meter.consume([Float(1), 0], splitSizes: [2])
        meter.updateMeters()
        #expect(meter.longestFullScaleRun(forChannel: 0) == 3)
        meter.updateMeters()
        #expect(meter.longestFullScaleRun(forChannel: 0) == 0)
    }
}

/// log10 from the C library, for expected values computed independently of Metering.
func log10Reference(_ value: Double) -> Float {
    Float(Glibc.log10(value))
}
