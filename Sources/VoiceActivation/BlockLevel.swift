import Audio
import SoundFiles

/// The peak and RMS of a block of interleaved samples, over all channels (1.0 = full scale).
///
/// Runs on the capture thread: no allocation, one pass.
struct BlockLevel: Sendable, Equatable {
    var peak: Float
    var rms: Float

    init(peak: Float, rms: Float) {
        self.peak = peak
        self.rms = rms
    }

    /// Measures `frames` frames of `format` at `buffer`.
    init(_ buffer: UnsafeRawPointer, frames: Int, format: StreamFormat) {
        let count = frames * format.channels
        switch format.sampleFormat {
        case .int16:
            self = Self.measure(buffer.assumingMemoryBound(to: Int16.self), count: count, scale: 1 / 32768)
        case .int32:
            self = Self.measure(buffer.assumingMemoryBound(to: Int32.self), count: count, scale: 1 / 2_147_483_648)
        case .float32:
            self = Self.measure(buffer.assumingMemoryBound(to: Float.self), count: count, scale: 1)
        }
    }

    private static func measure<Sample: BinaryInteger>(
        _ samples: UnsafePointer<Sample>, count: Int, scale: Double
    ) -> BlockLevel {
        guard count > 0 else { return BlockLevel(peak: 0, rms: 0) }
        var largest = 0.0
        var sumOfSquares = 0.0
        for index in 0..<count {
            let value = Double(samples[index]) * scale
            let magnitude = abs(value)
            if magnitude > largest { largest = magnitude }
            sumOfSquares += value * value
        }
        return BlockLevel(peak: Float(min(1, largest)), rms: Float((sumOfSquares / Double(count)).squareRoot()))
    }

    private static func measure(_ samples: UnsafePointer<Float>, count: Int, scale: Double) -> BlockLevel {
        guard count > 0 else { return BlockLevel(peak: 0, rms: 0) }
        var largest: Float = 0
        var sumOfSquares = 0.0
        for index in 0..<count {
            let value = samples[index]
            guard value.isFinite else { continue }
            let magnitude = abs(value)
            if magnitude > largest { largest = magnitude }
            sumOfSquares += Double(value) * Double(value)
        }
        return BlockLevel(peak: largest, rms: Float((sumOfSquares / Double(count)).squareRoot()))
    }
}
