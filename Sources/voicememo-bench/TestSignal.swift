#if canImport(Glibc)
import Glibc
#endif

/// A deterministic, non-trivial stereo signal: two tones at different levels plus noise.
///
/// Noise from a fixed-seed linear congruential generator keeps every run identical while
/// making sure no lane sees a constant; peaks stay below full scale so the meter's fast path
/// is what gets measured.
enum TestSignal {
    static func sample(frame: Int, channel: Int, noise: inout UInt32) -> Double {
        noise = noise &* 1_664_525 &+ 1_013_904_223
        let dither = (Double(noise >> 8) / Double(1 << 24) - 0.5) * 0.02
        let frequency = channel == 0 ? 441.0 : 1_003.0
        let level = channel == 0 ? 0.5 : 0.25
        return level * sin(2 * Double.pi * frequency * Double(frame) / 48_000) + dither
    }

    static func fill(_ buffer: UnsafeMutableBufferPointer<Float>) {
        var noise: UInt32 = 12_345
        for index in buffer.indices {
            buffer[index] = Float(sample(frame: index / 2, channel: index % 2, noise: &noise))
        }
    }

    static func fill(_ buffer: UnsafeMutableBufferPointer<Int16>) {
        var noise: UInt32 = 12_345
        for index in buffer.indices {
            buffer[index] = Int16(sample(frame: index / 2, channel: index % 2, noise: &noise) * 32_767)
        }
    }
}
