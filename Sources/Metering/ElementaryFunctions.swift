/// Logarithms, exponentials, square roots, rounding and trigonometry in pure Swift.
///
/// Metering may not import Glibc or Foundation. The standard library has no `log` or `exp`,
/// and its `squareRoot()` and `rounded()` compile to calls into libm (`sqrt`, `round`) that
/// executables which link Metering without Glibc fail to resolve, so those are here too. These follow the classic
/// fdlibm decomposition: split off the binary exponent, reduce the argument to a small interval,
/// and sum a short series there. Results are within a few units in the last place of `Double`,
/// so after rounding to `Float` they match the C library's results in all but vanishingly rare
/// cases, which is what keeps `MeterTable` entries identical to the classic C implementation.
enum ElementaryFunctions {
    /// ln 2 split in two: the high part has trailing zero bits, so `k * ln2High` is exact for
    /// every exponent `k` a `Double` can have.
    private static let ln2High: Double = 6.93147180369123816490e-01
    private static let ln2Low: Double = 1.90821492927058770002e-10
    private static let ln2: Double = 0.693147180559945309417232121458176568
    private static let ln10: Double = 2.302585092994045684017991454684364208
    private static let squareRootOfTwo: Double = 1.414213562373095048801688724209698079

    /// The natural logarithm of `x`: −∞ for 0, NaN for negative numbers and NaN.
    static func naturalLogarithm(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x == .infinity { return .infinity }
        var exponent = Double(Int(x.exponent))
        var mantissa = x.significand
        if mantissa > squareRootOfTwo {
            mantissa *= 0.5
            exponent += 1
        }
        // ln(m) = 2·atanh(s) with s = (m − 1)/(m + 1), |s| ≤ 0.172: the odd series below
        // reaches full double precision by s^23.
        let f = mantissa - 1
        let s = f / (2 + f)
        let s2 = s * s
        var series = 1.0 / 23.0
        var k = 21.0
        while k >= 1 {
            series = 1.0 / k + s2 * series
            k -= 2
        }
        let lnMantissa = 2 * s * series
        return exponent * ln2High + (lnMantissa + exponent * ln2Low)
    }

    /// e raised to `x`: 0 for large negative `x`, +∞ for large positive `x`.
    static func exponential(_ x: Double) -> Double {
        if x.isNaN { return .nan }
        if x > 709.79 { return .infinity }
        if x < -745.2 { return 0 }
        let k = nearestInteger(x / ln2)
        let r = (x - k * ln2High) - k * ln2Low
        // |r| ≤ 0.347: Taylor terms beyond r^17/17! are below double precision.
        var series = 1.0
        var n = 17.0
        while n >= 1 {
            series = 1 + r / n * series
            n -= 1
        }
        return Double(sign: .plus, exponent: Int(k), significand: series)
    }

    /// The square root of `x`, within an ulp: NaN for negative numbers.
    static func squareRoot(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 || x == .infinity { return x }
        // Halving the exponent puts the first guess within a factor √2 of the root; from there
        // Newton's iteration doubles the correct digits each time, and six reach 53 bits.
        var root = Double(sign: .plus, exponent: x.exponent / 2, significand: 1.2)
        for _ in 0..<6 {
            root = 0.5 * (root + x / root)
        }
        return root
    }

    /// `x` rounded to the nearest integer, halves away from zero.
    static func nearestInteger(_ x: Double) -> Double {
        // From 2^52 up every Double is an integer; below, Int conversion truncates exactly.
        guard x.magnitude < 4_503_599_627_370_496 else { return x }
        return Double(Int64(x + (x < 0 ? -0.5 : 0.5)))
    }

    /// The base-10 logarithm of `x`.
    static func logarithmBase10(_ x: Double) -> Double {
        naturalLogarithm(x) / ln10
    }

    /// 10 raised to `x`.
    static func exponentialBase10(_ x: Double) -> Double {
        if x == 0 { return 1 }
        return exponential(x * ln10)
    }

    /// `base` raised to `exponent`, for non-negative `base`.
    ///
    /// Exponents 1 and ½ take their own paths (identity and Newton's square root), which are
    /// exact or within an ulp, as the C library's `pow` is for the meter table's common roots.
    static func power(_ base: Double, _ exponent: Double) -> Double {
        if exponent == 1 { return base }
        if exponent == 0.5 { return squareRoot(base) }
        if base == 0 { return exponent > 0 ? 0 : (exponent == 0 ? 1 : .infinity) }
        return exponential(exponent * naturalLogarithm(base))
    }
    // MARK: Trigonometry

    /// π/2 in three 33-bit parts and a tail (fdlibm's `pio2_1`, `pio2_2`, `pio2_3`, `pio2_3t`):
    /// `k * part` is exact for every quadrant count `k` below 2²⁰, so the reduced argument keeps
    /// full precision for arguments up to about a million.
    private static let halfPiFirst: Double = 1.57079632673412561417e+00
    private static let halfPiSecond: Double = 6.07710050630396597660e-11
    private static let halfPiThird: Double = 2.02226624871116645580e-21
    private static let halfPiTail: Double = 8.47842766036889956997e-32
    private static let twoOverPi: Double = 0.636619772367581343075535053490057448

    /// The sine of `x` (radians): NaN for infinities and NaN.
    static func sine(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (quadrant, reduced) = reducedByHalfPi(x)
        switch quadrant {
        case 0: return sineNearZero(reduced)
        case 1: return cosineNearZero(reduced)
        case 2: return -sineNearZero(reduced)
        default: return -cosineNearZero(reduced)
        }
    }

    /// The cosine of `x` (radians): NaN for infinities and NaN.
    static func cosine(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (quadrant, reduced) = reducedByHalfPi(x)
        switch quadrant {
        case 0: return cosineNearZero(reduced)
        case 1: return -sineNearZero(reduced)
        case 2: return -cosineNearZero(reduced)
        default: return sineNearZero(reduced)
        }
    }

    /// The tangent of `x` (radians): NaN for infinities and NaN.
    static func tangent(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (quadrant, reduced) = reducedByHalfPi(x)
        let sine = sineNearZero(reduced)
        let cosine = cosineNearZero(reduced)
        return quadrant % 2 == 0 ? sine / cosine : -cosine / sine
    }

    /// `x` as `k·π/2 + r` with |r| ≤ π/4: returns `k` modulo 4 (0…3) and `r`.
    private static func reducedByHalfPi(_ x: Double) -> (quadrant: Int, reduced: Double) {
        let k = nearestInteger(x * twoOverPi)
        let reduced = ((x - k * halfPiFirst) - k * halfPiSecond) - k * halfPiThird - k * halfPiTail
        let quadrant = Int(Int64(k) & 3)
        return (quadrant, reduced)
    }

    /// sin r for |r| ≤ π/4: the Taylor series to r¹⁹, whose next term is below 10⁻¹⁹.
    private static func sineNearZero(_ r: Double) -> Double {
        let r2 = r * r
        // r·(1 − r²/(2·3)·(1 − r²/(4·5)·(1 − …))), innermost first.
        var series = 1.0
        var n = 18.0
        while n >= 2 {
            series = 1 - r2 / (n * (n + 1)) * series
            n -= 2
        }
        return r * series
    }

    /// cos r for |r| ≤ π/4: the Taylor series to r¹⁸.
    private static func cosineNearZero(_ r: Double) -> Double {
        let r2 = r * r
        // 1 − r²/(1·2)·(1 − r²/(3·4)·(1 − …)), innermost first.
        var series = 1.0
        var n = 17.0
        while n >= 1 {
            series = 1 - r2 / (n * (n + 1)) * series
            n -= 2
        }
        return series
    }
}
