import TestSupport
import Testing

@testable import Metering

/// Channels stay apart, every channel count agrees with the scalar reference, and the way a
/// stream is cut into buffers never changes a reading.
@Suite struct LevelMeterChannelTests {
    /// Different tone and level per channel, periods divisible by 4 so crests are sampled.
    static func tones(_ count: Int) -> [TestSignals.Tone] {
        let periods = [48, 32, 24, 16, 96, 40, 64, 80]
        return (0..<count).map { channel in
            .init(level: -3 - 4.5 * Double(channel), period: periods[channel % periods.count])
        }
    }

    @Test(arguments: SampleKind.allCases, [2, 6])
    func channelsAreIndependent(kind: SampleKind, channels: Int) {
        let tones = Self.tones(channels)
        var meter = LevelMeter(channels: channels)
        meter.consume(TestSignals.interleaved(tones, frames: 9_600), as: kind)
        meter.updateMeters()
        for (channel, tone) in tones.enumerated() {
            #expect(abs(Double(meter.peakPower(forChannel: channel)) - tone.level) < 0.01)
            #expect(abs(Double(meter.averagePower(forChannel: channel)) - (tone.level - 3.0103)) < 0.05)
        }
    }

    @Test func silentChannelStaysSilentBesideLoudOnes() {
        let samples = (0..<6_000).map { (index: Int) -> Double in
            index % 3 == 1 ? 0 : 0.3 * Double(index % 7 - 3)
        }
        var meter = LevelMeter(channels: 3)
        meter.consume(samples, as: .float)
        meter.updateMeters()
        #expect(meter.peakPower(forChannel: 1) == -160)
        #expect(meter.averagePower(forChannel: 1) == -160)
        #expect(meter.peakPower(forChannel: 0) > -10)
    }

    /// Every channel count 1…32, fast path and scalar path alike, against the reference.
    @Test(arguments: SampleKind.allCases, Array(1...32))
    func everyChannelCountMatchesTheReference(kind: SampleKind, channels: Int) {
        // Noise-like content with a different level per channel and an odd length, so blocks,
        // lane patterns and tails are all exercised.
        var generator = SplitMix64(seed: 2_463_534_242)
        var samples: [Double] = []
        for index in 0..<(channels * 1_237 + 5) {
            let unit: Double = Double(generator.next() >> 32) / Double(UInt32.max) * 2 - 1
            let channelGain: Double = 0.9 / Double(1 + index % channels)
            samples.append(unit * channelGain)
        }
        let reference = ReferenceMeter(channels: channels, samples: quantised(samples, as: kind))
        var meter = LevelMeter(channels: channels)
        meter.consume(samples, as: kind)
        meter.updateMeters()
        for channel in 0..<channels {
            #expect(abs(Double(meter.peakPower(forChannel: channel)) - reference.peakPower(forChannel: channel)) < 0.001)
            #expect(abs(Double(meter.averagePower(forChannel: channel)) - reference.averagePower(forChannel: channel)) < 0.001)
        }
    }

    @Test(arguments: SampleKind.allCases, [
        [1], [7], [333], [0, 5, 0, 11], [2, 3, 5, 7, 11, 13, 4_099], [1_999, 1], [4_096],
    ])
    func bufferSplitsGiveTheSameReading(kind: SampleKind, splitSizes: [Int]) {
        let tones = Self.tones(6)
        let samples = TestSignals.interleaved(tones, frames: 2_000)
        var whole = LevelMeter(channels: 6)
        whole.consume(samples, as: kind)
        whole.updateMeters()
        var split = LevelMeter(channels: 6)
        split.consume(samples, as: kind, splitSizes: splitSizes)
        split.updateMeters()
        for channel in 0..<6 {
            #expect(abs(split.peakPower(forChannel: channel) - whole.peakPower(forChannel: channel)) < 0.0001)
            #expect(abs(split.averagePower(forChannel: channel) - whole.averagePower(forChannel: channel)) < 0.0001)
        }
    }

    @Test func remainderContinuesOnTheRightChannel() {
        // Left is loud, right is silent; a buffer of 3 samples ends after a left sample, so the
        // next buffer must start on the right channel.
        let frames = Array(repeating: [0.5, 0.0], count: 100).flatMap { $0 }
        var meter = LevelMeter(channels: 2)
        meter.consume(frames, as: .int16, splitSizes: [3, 1, 5])
        meter.updateMeters()
        #expect(meter.peakPower(forChannel: 1) == -160)
        #expect(abs(meter.peakPower(forChannel: 0) - -6.0206) < 0.001)
    }

    @Test func emptyBufferChangesNothing() {
        var meter = LevelMeter(channels: 2)
        [Float]().withUnsafeBufferPointer { meter.consume($0) }
        meter.consume([Float(0.25)], splitSizes: [1])
        [Int16]().withUnsafeBufferPointer { meter.consume($0) }
        meter.consume([Float(1)], splitSizes: [1])
        meter.updateMeters()
        #expect(abs(meter.peakPower(forChannel: 0) - -12.0412) < 0.001)
        #expect(meter.peakPower(forChannel: 1) == 0)
    }
}
