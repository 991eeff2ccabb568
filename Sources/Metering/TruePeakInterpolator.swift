/// The polyphase FIR that oversamples for the true-peak meter: a Kaiser-windowed sinc.
///
/// The prototype low-pass has `factor × tapsPerPhase` taps, cut off at the input's Nyquist
/// frequency and centred on a tap, so phase 0 is the input sample itself and phases 1…factor−1
/// are the points ¼, ½, ¾ of the way to the next sample (for ×4). With 16 taps per phase and
/// β = 6 the passband is flat within 0.003 dB up to a quarter of the input rate and within
/// 0.2 dB up to 0.4 of it (19.2 kHz at 48 kHz) — BS.1770-4's 12-tap example filter loses more
/// there. The coefficients depend only on the factor, not on the rate.
struct TruePeakInterpolator: Sendable {
    /// Taps of each phase.
    static let tapsPerPhase = 16
    /// The Kaiser window's shape parameter.
    static let kaiserBeta = 6.0

    /// The oversampling factor: 4, 2 or 1.
    let factor: Int
    /// Tap `j` for all phases at once, lane p = phase p (lanes beyond `factor` repeat phase 0),
    /// in the order that multiplies a window of inputs oldest first.
    let taps: [SIMD4<Float>]

    /// The filter for an oversampling `factor` of 1, 2 or 4.
    init(factor: Int) {
        precondition([1, 2, 4].contains(factor), "true-peak oversampling is ×1, ×2 or ×4, not ×\(factor)")
        self.factor = factor
        let count = Self.tapsPerPhase
        let phases = (0..<factor).map { Self.phaseCoefficients(phase: $0, factor: factor) }
        taps = (0..<count).map { window in
            // Inputs oldest first: window position j multiplies coefficient count − 1 − j.
            let coefficientIndex = count - 1 - window
            var lanes = SIMD4<Float>()
            for lane in 0..<4 {
                lanes[lane] = Float(phases[lane % factor][coefficientIndex])
            }
            return lanes
        }
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
