import TestSupport
import Glibc
import Testing

@testable import Metering

/// The sample formats the meter reads, for parameterised tests.
enum SampleKind: String, CaseIterable, CustomTestStringConvertible {
    case int16, int32, float

    var testDescription: String { rawValue }
}

extension LevelMeter {
    /// Consumes `samples`, converted to `kind`, in one buffer.
    mutating func consume(_ samples: [Double], as kind: SampleKind) {
        consume(samples, as: kind, splitSizes: [samples.count])
    }

    /// Consumes `samples`, converted to `kind`, in buffers of the given sizes, repeating the
    /// sizes until the samples run out.
    mutating func consume(_ samples: [Double], as kind: SampleKind, splitSizes: [Int]) {
        switch kind {
        case .int16: consume(TestSignals.int16(samples), splitSizes: splitSizes)
        case .int32: consume(TestSignals.int32(samples), splitSizes: splitSizes)
        case .float: consume(TestSignals.float(samples), splitSizes: splitSizes)
        }
    }

    mutating func consume(_ samples: [Int16], splitSizes: [Int] = [Int.max]) {
        forEachSlice(of: samples.count, sizes: splitSizes) { range in
            samples[range].withUnsafeBufferPointer { consume($0) }
        }
    }

    mutating func consume(_ samples: [Int32], splitSizes: [Int] = [Int.max]) {
        forEachSlice(of: samples.count, sizes: splitSizes) { range in
            samples[range].withUnsafeBufferPointer { consume($0) }
        }
    }

    mutating func consume(_ samples: [Float], splitSizes: [Int] = [Int.max]) {
        forEachSlice(of: samples.count, sizes: splitSizes) { range in
            samples[range].withUnsafeBufferPointer { consume($0) }
        }
    }
}

private func forEachSlice(of count: Int, sizes: [Int], _ body: (Range<Int>) -> Void) {
    var start = 0
    var index = 0
    repeat {
        let size = sizes[index % sizes.count]
        let end = min(count, start + min(size, count))
        body(start..<end)
        start = end
        index += 1
    } while start < count
}

/// The obvious per-sample meter the fast one must agree with.
struct ReferenceMeter {
    var peaks: [Double]
    var sums: [Double]
    var counts: [Int]

    init(channels: Int, samples: [Double]) {
        peaks = Array(repeating: 0, count: channels)
        sums = Array(repeating: 0, count: channels)
        counts = Array(repeating: 0, count: channels)
        for (index, sample) in samples.enumerated() {
            let channel = index % channels
            peaks[channel] = max(peaks[channel], abs(sample))
            sums[channel] += sample * sample
            counts[channel] += 1
        }
    }

    func peakPower(forChannel channel: Int) -> Double {
        peaks[channel] > 0 ? 20 * log10(peaks[channel]) : -160
    }

    func averagePower(forChannel channel: Int) -> Double {
        sums[channel] > 0 ? 10 * log10(sums[channel] / Double(counts[channel])) : -160
    }
}

/// What a format really stores for `samples` (1.0 = full scale), for exact reference levels.
func quantised(_ samples: [Double], as kind: SampleKind) -> [Double] {
    switch kind {
    case .int16: TestSignals.int16(samples).map { Double($0) / 32768 }
    case .int32: TestSignals.int32(samples).map { Double($0) / 2_147_483_648 }
    case .float: TestSignals.float(samples).map { Double($0) }
    }
}
