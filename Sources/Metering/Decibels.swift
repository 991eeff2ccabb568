import Glibc
/// Conversions between linear levels and decibels relative to full scale (dBFS).
///
/// Follows AVAudioRecorder's conventions: silence reads −160 dB (the floor), a full-scale
/// square wave reads 0 dB, and RMS is not AES17-corrected, so a full-scale sine averages
/// −3.01 dB.
public enum Decibels {
    /// The lowest level reported: what silence, and anything quieter than −160 dBFS, reads.
    public static let floor: Float = -160

    /// The level in dBFS of an amplitude where 1.0 is full scale: 20·log10(amplitude).
    ///
    /// Zero, negative and NaN amplitudes read as `floor`.
    public static func fromAmplitude(_ amplitude: Double) -> Float {
        guard amplitude > 0 else { return floor }
        return clampedToFloor(20 * log10(amplitude))
    }

    /// The level in dBFS of a mean square (power) where 1.0 is full scale: 10·log10(power).
    ///
    /// Taking the logarithm of the power instead of its square root saves a rounding step.
    public static func fromPower(_ meanSquare: Double) -> Float {
        guard meanSquare > 0 else { return floor }
        return clampedToFloor(10 * log10(meanSquare))
    }

    /// The amplitude (1.0 is full scale) of a level in dBFS: 10^(dB/20).
    public static func toAmplitude(_ decibels: Double) -> Double {
        pow(10, 0.05 * decibels)
    }

    private static func clampedToFloor(_ decibels: Double) -> Float {
        let value = Float(decibels)
        return value > floor ? value : floor
    }
}
