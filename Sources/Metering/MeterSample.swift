/// A sample type the level meter reads: how to widen it to `Float` and where full scale lies.
///
/// Values stay in the type's own units ("raw") inside the hot loop; they are scaled to the
/// 1.0 = full scale convention once per block, by a power of two, so scaling is exact.
protocol MeterSample {
    /// The raw magnitude that 0 dBFS corresponds to.
    static var fullScale: Float { get }

    /// The smallest raw magnitude that counts as a full-scale (clip-level) sample.
    static var clipThreshold: Float { get }

    /// Eight consecutive samples starting at `pointer`, widened to `Float` in raw units.
    static func loadVector(_ pointer: UnsafePointer<Self>) -> SIMD8<Float>

    /// One sample's magnitude in raw units, after the NaN and over-range rules.
    static func sanitizedMagnitude(_ sample: Self) -> Float
}

extension Int16: MeterSample {
    static var fullScale: Float { 32768 }
    static var clipThreshold: Float { 32767 }

    @inline(__always)
    static func loadVector(_ pointer: UnsafePointer<Int16>) -> SIMD8<Float> {
        // Lane by lane: the generic SIMD conversions (`SIMD8<Int32>(truncatingIfNeeded:)`,
        // `SIMD8<Float>(_:)`) stay out-of-line calls in the hot loop; these vectorise.
        let narrow = UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Int16>.self)
        return SIMD8<Float>(
            Float(narrow[0]), Float(narrow[1]), Float(narrow[2]), Float(narrow[3]),
            Float(narrow[4]), Float(narrow[5]), Float(narrow[6]), Float(narrow[7]))
    }

    @inline(__always)
    static func sanitizedMagnitude(_ sample: Int16) -> Float {
        Float(sample.magnitude)
    }
}

extension Int32: MeterSample {
    static var fullScale: Float { 2_147_483_648 }
    /// The largest 24-bit code left-justified in 32 bits (0x7FFFFF00): a 24-bit converter at its
    /// limit clips there, not at `Int32.max`.
    static var clipThreshold: Float { 2_147_483_392 }

    @inline(__always)
    static func loadVector(_ pointer: UnsafePointer<Int32>) -> SIMD8<Float> {
        SIMD8<Float>(UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Int32>.self))
    }

    @inline(__always)
    static func sanitizedMagnitude(_ sample: Int32) -> Float {
        Float(sample.magnitude)
    }
}

extension Float: MeterSample {
    static var fullScale: Float { 1 }
    static var clipThreshold: Float { 1 }

    @inline(__always)
    static func loadVector(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
    }

    /// NaN reads as silence (0); anything beyond ±1.0, infinities included, reads as full scale.
    @inline(__always)
    static func sanitizedMagnitude(_ sample: Float) -> Float {
        if sample.isNaN { return 0 }
        let magnitude = sample.magnitude
        return magnitude < 1 ? magnitude : 1
    }
}
