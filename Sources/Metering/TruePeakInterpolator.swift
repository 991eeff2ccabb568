import Glibc
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
    /// The half-way phase's taps alone (×4: phase 2; each coefficient in all eight lanes, inputs
    /// oldest first), for chunks where only that phase can raise the reading.
    let halfTaps: [SIMD8<Float>]
    /// Σ|c| and |Σ c| of the half-way phase (the only computed one at ×2).
    let halfAbsoluteGain: Double
    let halfDirectGain: Double
    /// The largest Σ|c| and |Σ c| of the other computed phases (×4: phases 1 and 3, 1.755 against
    /// the half-way phase's 2.040; 0 at ×2 and ×1, which have none).
    let outerAbsoluteGain: Double
    let outerDirectGain: Double
    /// For the bound of a block of instants (`BlockTest`), over the computed phases:
    /// max(|S0 − S1| + |S1|), S0 = Σ c_k and S1 = Σ c_k·(k − 7) in window order (≈ 1), and
    /// max Σ|c_k|·(k − 7)(k − 8)/2 (≈ 2.9 for the half-way phase).
    let lineGain: Double
    let curvatureGain: Double

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
        let absoluteGains = phases.map { $0.reduce(0.0) { $0 + Double($1.magnitude) } }
        let directGains = phases.map { $0.reduce(0.0) { $0 + Double($1) }.magnitude }
        absoluteGain = absoluteGains.max() ?? 0
        directGain = directGains.max() ?? 0
        // Phase factor/2 is the half-way one: index factor/2 − 1 among phases 1…factor−1.
        let half = factor / 2 - 1
        halfTaps = half >= 0 ? phases[half].map { SIMD8(repeating: $0) } : []
        halfAbsoluteGain = half >= 0 ? absoluteGains[half] : 0
        halfDirectGain = half >= 0 ? directGains[half] : 0
        let outer = phases.indices.filter { $0 != half }
        outerAbsoluteGain = outer.map { absoluteGains[$0] }.max() ?? 0
        outerDirectGain = outer.map { directGains[$0] }.max() ?? 0
        let centre = count / 2 - 1
        lineGain = phases.map { phase -> Double in
            let s0 = phase.reduce(0.0) { $0 + Double($1) }
            let s1 = phase.enumerated().reduce(0.0) { $0 + Double($1.element) * Double($1.offset - centre) }
            return (s0 - s1).magnitude + s1.magnitude
        }.max() ?? 0
        curvatureGain = phases.map { phase -> Double in
            phase.enumerated().reduce(0.0) { sum, tap in
                let distance = Double(tap.offset - centre)
                return sum + Double(tap.element.magnitude) * (distance * (distance - 1) / 2).magnitude
            }
        }.max() ?? 0
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
        return sin(Double.pi * x) / (Double.pi * x)
    }

    /// The Kaiser window at `t` in −1…1.
    private static func kaiser(_ t: Double) -> Double {
        let inside = max(0, 1 - t * t)
        return besselI0(kaiserBeta * sqrt(inside)) / besselI0(kaiserBeta)
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
