/// A sample type the loudness and true-peak meters read: its value scaled to ±1.0 full scale.
///
/// The same rules as `LevelMeter` apply, so one bad sample never poisons a filter's state:
/// NaN reads as 0, and a Float beyond ±1.0 (infinities included) reads as ±1.0.
protocol LoudnessSample {
    /// The sample as a value in −1…1 (1.0 = full scale), after the NaN and over-range rules.
    static func normalizedValue(_ sample: Self) -> Float

    /// Whether the sample sits at full scale (the clip level `LevelMeter` uses for the type).
    static func isFullScale(_ sample: Self) -> Bool
}

extension Int16: LoudnessSample {
    @inline(__always)
    static func normalizedValue(_ sample: Int16) -> Float {
        Float(sample) * (1 / 32768)
    }

    @inline(__always)
    static func isFullScale(_ sample: Int16) -> Bool {
        sample.magnitude >= 32767
    }
}

extension Int32: LoudnessSample {
    @inline(__always)
    static func normalizedValue(_ sample: Int32) -> Float {
        Float(sample) * (1 / 2_147_483_648)
    }

    /// From the largest 24-bit code left-justified in 32 bits (0x7FFFFF00) up.
    @inline(__always)
    static func isFullScale(_ sample: Int32) -> Bool {
        sample.magnitude >= 0x7FFF_FF00
    }
}

extension Float: LoudnessSample {
    @inline(__always)
    static func normalizedValue(_ sample: Float) -> Float {
        if sample.isNaN { return 0 }
        return min(max(sample, -1), 1)
    }

    @inline(__always)
    static func isFullScale(_ sample: Float) -> Bool {
        sample.magnitude >= 1
    }
}
