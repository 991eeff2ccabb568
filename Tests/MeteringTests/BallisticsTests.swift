import Testing

@testable import Metering

/// Peak hold, clip latch and smoothing, with time stepped by the test.
@Suite struct BallisticsTests {
    @Test func peakHoldsForExactlyTheHoldTime() {
        var hold = PeakHold()
        hold.update(peak: -6, at: 10)
        for step in 0...100 {
            let time = 10 + Double(step) * 0.01
            #expect(hold.update(peak: -40, at: time) == -6, "at \(time) s")
        }
        #expect(hold.power(at: 11.01) < -6)
    }

    @Test func thenFallsTwentyDecibelsInOnePointSevenSeconds() {
        var hold = PeakHold()
        hold.update(peak: -3, at: 0)
        #expect(abs(hold.power(at: 1.0 + 0.85) - -13) < 1e-4)
        #expect(abs(hold.power(at: 1.0 + 1.7) - -23) < 1e-4)
        #expect(abs(hold.power(at: 1.0 + 3.4) - -43) < 1e-4)
        // Decay is a straight line in dB: equal steps, equal falls.
        let fall1 = hold.power(at: 2.0) - hold.power(at: 2.5)
        let fall2 = hold.power(at: 2.5) - hold.power(at: 3.0)
        #expect(abs(fall1 - fall2) < 1e-4)
        #expect(abs(fall1 - Float(0.5 * 20 / 1.7)) < 1e-4)
    }

    @Test func fallStopsAtTheFloor() {
        var hold = PeakHold()
        hold.update(peak: -150, at: 0)
        #expect(hold.power(at: 100) == -160)
    }

    @Test func higherPeakRestartsTheHold() {
        var hold = PeakHold()
        hold.update(peak: -20, at: 0)
        hold.update(peak: -10, at: 0.6)
        #expect(hold.power(at: 1.5) == -10)
        #expect(hold.power(at: 1.6) == -10)
        #expect(hold.power(at: 1.7) < -10)
    }

    @Test func peakAboveTheDecayingValueIsCaught() {
        var hold = PeakHold()
        hold.update(peak: 0, at: 0)
        // At 2.7 s the display has fallen to −20 dB; a −15 dB peak is above that and holds.
        #expect(abs(hold.update(peak: -15, at: 2.7) - -15) < 1e-4)
        #expect(abs(hold.power(at: 3.7) - -15) < 1e-4)
        // A quieter peak below the held value changes nothing.
        #expect(abs(hold.update(peak: -30, at: 3.0) - -15) < 1e-4)
    }

    @Test func customTimingAndReset() {
        var hold = PeakHold(holdTime: 0.5, decayRate: 10)
        hold.update(peak: -1, at: 0)
        #expect(hold.power(at: 0.5) == -1)
        #expect(abs(hold.power(at: 1.5) - -11) < 1e-4)
        hold.reset()
        #expect(hold.power(at: 1.5) == -160)
        #expect(PeakHold(holdTime: -1, decayRate: .nan).holdTime == 0)
    }

    /// Mono Int16 quiet noise with full-scale samples at `positions`, split into buffers: the
    /// clips the level meter counts in one snapshot and those the true-peak meter (the files'
    /// statistics, `analyze`) counts, which must be the same (`ClipRule`).
    static func clips(fullScaleAt positions: [Int], splitSizes: [Int]) -> Int {
        var samples = (0..<3_000).map { Int16($0 % 50 - 25) }
        for position in positions { samples[position] = .min }
        var meter = LevelMeter(channels: 1)
        meter.consume(samples, splitSizes: splitSizes)
        meter.updateMeters()
        var truePeak = TruePeakMeter(channels: 1, sampleRate: 48_000)
        var offset = 0
        for size in splitSizes where offset < samples.count {
            let count = min(size, samples.count - offset)
            samples[offset..<(offset + count)].withUnsafeBufferPointer { truePeak.consume($0) }
            offset += count
        }
        if offset < samples.count { samples[offset...].withUnsafeBufferPointer { truePeak.consume($0) } }
        #expect(truePeak.clipCount == meter.clips(forChannel: 0), "the level and true-peak meters count clips alike")
        return meter.clips(forChannel: 0)
    }

    @Test(arguments: [[Int.max], [1], [1_000, 1], [1_001], [1_002], [999, 2, 1]])
    func threeConsecutiveFullScaleSamplesAreOneClip(splitSizes: [Int]) {
        #expect(Self.clips(fullScaleAt: [1_000, 1_001, 1_002], splitSizes: splitSizes) == 1)
    }

    @Test(arguments: [[Int.max], [1], [1_001]])
    func twoInARowAreNoClip(splitSizes: [Int]) {
        #expect(Self.clips(fullScaleAt: [1_000, 1_001], splitSizes: splitSizes) == 0)
    }

    @Test(arguments: [[Int.max], [1], [1_001]])
    func threeApartAreNoClip(splitSizes: [Int]) {
        let positions = [1_000, 1_001, 1_003, 2_000, 2_500]
        #expect(Self.clips(fullScaleAt: positions, splitSizes: splitSizes) == 0)
    }

    /// A long overload is one clip; two runs apart are two.
    @Test(arguments: [[Int.max], [1], [7, 500]])
    func aRunCountsOnceHoweverLong(splitSizes: [Int]) {
        #expect(Self.clips(fullScaleAt: Array(100..<400), splitSizes: splitSizes) == 1)
        #expect(Self.clips(fullScaleAt: Array(100..<104) + Array(200..<203) + [300, 301], splitSizes: splitSizes) == 2)
    }

    @Test func aRunSplitAcrossSnapshotsCountsInTheOneWhereItReachesThree() {
        var meter = LevelMeter(channels: 2)
        meter.consume([Float(0), 0, 1, 0, -1, 0], splitSizes: [6])
        meter.updateMeters()
        #expect(meter.clips(forChannel: 0) == 0)
        meter.consume([Float(1), 0.5, 1, 0], splitSizes: [4])
        meter.updateMeters()
        #expect(meter.clips(forChannel: 0) == 1)
        #expect(meter.clips(forChannel: 1) == 0)
        meter.updateMeters()
        #expect(meter.clips(forChannel: 0) == 0, "counted once, in the snapshot where the run reached three")
        #expect(meter.clips(forChannel: 5) == 0)
    }

    @Test func latchLightsOnANewClipAndStaysUntilReset() {
        var latch = ClipLatch()
        latch.observe(clipCount: 0)
        #expect(!latch.isLatched)
        latch.observe(clipCount: 2)
        latch.observe(clipCount: 2)
        #expect(latch.isLatched)
        latch.reset()
        latch.observe(clipCount: 2)
        #expect(!latch.isLatched, "the clips before the reset are not new")
        latch.observe(clipCount: 3)
        #expect(latch.isLatched)
        latch.reset()
        latch.observe(clipCount: 0)
        #expect(!latch.isLatched, "a new input counts from 0")
        latch.observe(clipCount: 1)
        #expect(latch.isLatched)
    }

    @Test func smootherCoversSixtyThreePercentInOneTimeConstant() {
        var smoother = LevelSmoother(attackTime: 0.01, releaseTime: 0.5)
        smoother.update(-60, elapsed: 0)
        let risen = smoother.update(0, elapsed: 0.01)
        #expect(abs(risen - -60 * 0.36788) < 0.001)
        smoother.update(0, elapsed: 10)
        let fallen = smoother.update(-60, elapsed: 0.5)
        #expect(abs(fallen - -60 * 0.63212) < 0.001)
    }

    @Test func smootherIsIndependentOfStepSize() {
        var coarse = LevelSmoother(attackTime: 0.05, releaseTime: 0.3)
        var fine = coarse
        coarse.update(-50, elapsed: 0)
        fine.update(-50, elapsed: 0)
        coarse.update(-10, elapsed: 0.1)
        for _ in 0..<10 { fine.update(-10, elapsed: 0.01) }
        #expect(abs((coarse.value ?? 0) - (fine.value ?? 1)) < 1e-4)
    }

    @Test func smootherEdgeCases() {
        var instant = LevelSmoother(attackTime: 0, releaseTime: 0)
        instant.update(-30, elapsed: 0)
        #expect(instant.update(-3, elapsed: 0.001) == -3)
        var smoother = LevelSmoother(attackTime: 0.1, releaseTime: 0.1)
        #expect(smoother.value == nil)
        #expect(smoother.update(-20, elapsed: 5) == -20)
        #expect(smoother.update(0, elapsed: -1) == -20)
        #expect(smoother.update(0, elapsed: .nan) == -20)
        #expect(smoother.update(-.infinity, elapsed: 0.1) == -.infinity)
        #expect(smoother.update(-12, elapsed: 0.1) == -12)
        smoother.reset()
        #expect(smoother.value == nil)
    }
}
