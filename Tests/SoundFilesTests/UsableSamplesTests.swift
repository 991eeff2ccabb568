import SoundFiles
import Testing

@Suite struct UsableSamplesTests {
    @Test func notNumbersBecomeSilenceAndOversAreClamped() {
        var samples: [Float] = [0.5, .nan, -.infinity, .infinity, 1.5, -2, 1, -1, 1e36, -0.25]
        let replaced = samples.withUnsafeMutableBufferPointer { UsableSamples.repair($0) }
        #expect(samples == [0.5, 0, 0, 0, 1, -1, 1, -1, 1, -0.25])
        #expect(replaced == ReplacedSamples(notNumbers: 3, clamped: 3))
        #expect(samples.withUnsafeBufferPointer { UsableSamples.areUsable($0) })
    }

    /// One unusable sample at every position of a buffer longer than a few blocks of eight
    /// (and its tail) is found and replaced, and nothing else is touched.
    @Test func anUnusableSampleIsFoundAtEveryPosition() {
        let usable = (0..<37).map { Float($0 % 5) / 5 - 0.5 }
        for position in usable.indices {
            for bad: Float in [.nan, 1.0625, -.infinity] {
                var samples = usable
                samples[position] = bad
                #expect(!samples.withUnsafeBufferPointer { UsableSamples.areUsable($0) })
                let replaced = samples.withUnsafeMutableBufferPointer { UsableSamples.repair($0) }
                var expected = usable
                expected[position] = bad.isNaN || bad.isInfinite ? 0 : 1
                #expect(samples == expected, "position \(position), \(bad)")
                #expect(replaced.notNumbers + replaced.clamped == 1)
            }
        }
        #expect(usable.withUnsafeBufferPointer { UsableSamples.areUsable($0) })
    }

    @Test func integerSamplesAreLeftAlone() {
        var samples: [Int16] = [.max, .min, 0]
        let replaced = samples.withUnsafeMutableBytes {
            UsableSamples.repair($0.baseAddress!, samples: 3, format: .int16)
        }
        #expect(replaced.isEmpty && samples == [.max, .min, 0])
    }

    @Test func theReportNamesEachKindOnce() {
        #expect(ReplacedSamples().sentence == nil)
        #expect(ReplacedSamples(notNumbers: 1).sentence == "1 sample was not a number and was written as silence")
        #expect(
            ReplacedSamples(notNumbers: 12, clamped: 1).sentence
                == "12 samples were not numbers and were written as silence; 1 sample beyond full scale was clamped")
        #expect(UsableSamples.usable(.nan) == 0 && UsableSamples.usable(-3) == -1 && UsableSamples.usable(0.5) == 0.5)
    }
}
