/// The polyphase FIR that oversamples for the true-peak meter: a Kaiser-windowed sinc.
///
/// The prototype low-pass has `factor × tapsPerPhase` taps, cut off at the input's Nyquist
/// frequency and centred on a tap, so phase 0 is the input sample itself and phases 1…factor−1
/// are the points ¼, ½, ¾ of the way to the next sample (for ×4). With 16 taps per phase and
/// β = 6 the passband is flat within 0.003 dB up to a quarter of the input rate and within
/// 0.2 dB up to 0.4 of it (19.2 kHz at 48 kHz) — BS.1770-4's 12-tap example filter loses more
/// there. The coefficients depend only on the factor, not on the rate.
///
/// Phase 0 is never computed: it is the sample itself (coefficients exactly 0 and 1), which the
/// meter's sample peak already covers. The other phases run eight output instants at a time
/// (`SIMD8`, one unaligned load of eight inputs per tap shared by every phase), each phase
/// summed in two accumulators (even and odd taps) as before, so every oversampled value is the
/// same to the bit as when the four phases of one instant were computed together.
struct TruePeakInterpolator: Sendable {
    /// Taps of each phase.
    static let tapsPerPhase = 16
    /// The Kaiser window's shape parameter.
    static let kaiserBeta = 6.0

    /// The oversampling factor: 4, 2 or 1.
    let factor: Int
    /// Tap `j` of the computed phases 1…factor−1 (at `j × (factor − 1) + phase − 1`), each
    /// coefficient in all eight lanes, in the order that multiplies a window of inputs oldest
    /// first.
    let taps: [SIMD8<Float>]
    /// The largest Σ|c| of a computed phase: no oversampled value exceeds it times the largest
    /// input magnitude around it.
    let absoluteGain: Double
    /// The largest |Σ c| of a computed phase (1 up to the coefficients' rounding): its gain at DC.
    let directGain: Double

    /// The filter for an oversampling `factor` of 1, 2 or 4.
    init(factor: Int) {
        precondition([1, 2, 4].contains(factor), "true-peak oversampling is ×1, ×2 or ×4, not ×\(factor)")
        self.factor = factor
        let count = Self.tapsPerPhase
        // Inputs oldest first: window position j multiplies coefficient count − 1 − j.
        let phases = (1..<factor).map { phase in
            Self.phaseCoefficients(phase: phase, factor: factor).reversed().map { Float($0) }
        }
        var taps: [SIMD8<Float>] = []
        for window in 0..<count {
            for phase in phases { taps.append(SIMD8(repeating: phase[window])) }
        }
        self.taps = taps
        absoluteGain = phases.map { $0.reduce(0.0) { $0 + Double($1.magnitude) } }.max() ?? 0
        directGain = phases.map { $0.reduce(0.0) { $0 + Double($1) }.magnitude }.max() ?? 0
    }

    /// Phase `phase`'s coefficients h[k] (output = Σ h[k]·x[n − k]), normalised to unit gain at DC.
    ///
    /// The output of every phase is delayed by `tapsPerPhase / 2` input samples.
    static func phaseCoefficients(phase: Int, factor: Int) -> [Double] {
        let length = Double(factor * tapsPerPhase)
        let centre = length / 2
        let coefficients = (0..<tapsPerPhase).map { k -> Double in
            let position = Double(phase + factor * k)
            let offset = (position - centre) / Double(factor)
            return sinc(offset) * kaiser((position - centre) / centre)
        }
        let sum = coefficients.reduce(0, +)
        return coefficients.map { $0 / sum }
    }

    /// sin(πx)/(πx), 1 at 0.
    private static func sinc(_ x: Double) -> Double {
        guard x != 0 else { return 1 }
        // sin(πx) vanishes exactly at integers; the series would leave 10⁻¹⁶ there.
        if x == x.rounded(.towardZero) { return 0 }
        return ElementaryFunctions.sine(Double.pi * x) / (Double.pi * x)
    }

    /// The Kaiser window at `t` in −1…1.
    private static func kaiser(_ t: Double) -> Double {
        let inside = max(0, 1 - t * t)
        return besselI0(kaiserBeta * ElementaryFunctions.squareRoot(inside)) / besselI0(kaiserBeta)
    }

    /// The modified Bessel function of the first kind, order 0: Σ ((x/2)^k / k!)².
    private static func besselI0(_ x: Double) -> Double {
        let quarterSquare = x * x / 4
        var term = 1.0
        var sum = 1.0
        var k = 1.0
        while term > sum * 1e-17 {
            term *= quarterSquare / (k * k)
            sum += term
            k += 1
        }
        return sum
    }
}
