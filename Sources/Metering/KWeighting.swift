import Glibc
/// The K-weighting of ITU-R BS.1770-4 at any sample rate: a high shelf (+4 dB above about
/// 1.5 kHz, modelling the head) followed by the RLB high-pass (about 38 Hz).
///
/// The standard tabulates both biquads for 48 kHz only. Here each is derived from its analogue
/// prototype (centre frequency, gain, Q) with the bilinear transform, prewarped at the centre
/// frequency, as libebur128 does; the prototype parameters were fitted to the 48 kHz table, so
/// at 48 kHz the coefficients reproduce it to about 10⁻¹⁵.
public struct KWeighting: Sendable, Equatable {
    /// The head-modelling high shelf (BS.1770 "pre-filter", stage 1).
    public let shelf: BiquadCoefficients
    /// The revised low-frequency B-curve high-pass (stage 2).
    public let highPass: BiquadCoefficients

    /// The shelf's analogue prototype: centre frequency (Hz), gain (dB), Q.
    static let shelfFrequency = 1681.974450955533
    static let shelfGain = 3.999843853973347
    static let shelfQ = 0.7071752369554196
    /// The exponent that places the shelf's mid-band gain, from the fit to the 48 kHz table.
    static let shelfMidGainExponent = 0.4996667741545416
    /// The high-pass's analogue prototype: corner frequency (Hz) and Q.
    static let highPassFrequency = 38.13547087602444
    static let highPassQ = 0.5003270373238773

    /// The filters for `sampleRate` Hz.
    ///
    /// - Parameter sampleRate: above 2 × 1682 Hz, so the shelf's centre lies below Nyquist;
    ///   `LoudnessMeter.supportedSampleRates` (8 kHz and up) is what the meters accept.
    public init(sampleRate: Double) {
        let pi = Double.pi
        let shelfWarp = tan(pi * Self.shelfFrequency / sampleRate)
        let highGain = pow(10, Self.shelfGain / 20)
        let midGain = pow(highGain, Self.shelfMidGainExponent)
        let shelfWarp2 = shelfWarp * shelfWarp
        let shelfNorm = 1 + shelfWarp / Self.shelfQ + shelfWarp2
        shelf = BiquadCoefficients(
            b0: (highGain + midGain * shelfWarp / Self.shelfQ + shelfWarp2) / shelfNorm,
            b1: 2 * (shelfWarp2 - highGain) / shelfNorm,
            b2: (highGain - midGain * shelfWarp / Self.shelfQ + shelfWarp2) / shelfNorm,
            a1: 2 * (shelfWarp2 - 1) / shelfNorm,
            a2: (1 - shelfWarp / Self.shelfQ + shelfWarp2) / shelfNorm)

        let passWarp = tan(pi * Self.highPassFrequency / sampleRate)
        let passWarp2 = passWarp * passWarp
        let passNorm = 1 + passWarp / Self.highPassQ + passWarp2
        highPass = BiquadCoefficients(
            b0: 1, b1: -2, b2: 1,
            a1: 2 * (passWarp2 - 1) / passNorm,
            a2: (1 - passWarp / Self.highPassQ + passWarp2) / passNorm)
    }

    /// The gain of both stages at `frequency` Hz, in dB, for a filter running at `sampleRate`.
    public func gain(atFrequency frequency: Double, sampleRate: Double) -> Double {
        let power =
            shelf.powerGain(atFrequency: frequency, sampleRate: sampleRate)
            * highPass.powerGain(atFrequency: frequency, sampleRate: sampleRate)
        return 10 * log10(power)
    }
}

/// One biquad section, H(z) = (b0 + b1·z⁻¹ + b2·z⁻²) / (1 + a1·z⁻¹ + a2·z⁻²).
public struct BiquadCoefficients: Sendable, Equatable {
    public var b0, b1, b2, a1, a2: Double

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0
        self.b1 = b1
        self.b2 = b2
        self.a1 = a1
        self.a2 = a2
    }

    /// |H|² on the unit circle at `frequency` Hz.
    func powerGain(atFrequency frequency: Double, sampleRate: Double) -> Double {
        let omega = 2 * Double.pi * frequency / sampleRate
        let cos1 = cos(omega), sin1 = sin(omega)
        let cos2 = cos(2 * omega), sin2 = sin(2 * omega)
        let numeratorReal = b0 + b1 * cos1 + b2 * cos2
        let numeratorImaginary = b1 * sin1 + b2 * sin2
        let denominatorReal = 1 + a1 * cos1 + a2 * cos2
        let denominatorImaginary = a1 * sin1 + a2 * sin2
        return (numeratorReal * numeratorReal + numeratorImaginary * numeratorImaginary)
            / (denominatorReal * denominatorReal + denominatorImaginary * denominatorImaginary)
    }
}

/// The running state of one channel through both K-weighting stages (transposed direct form II).
struct KWeightingState {
    var shelfFirst = 0.0
    var shelfSecond = 0.0
    var highPassFirst = 0.0
    var highPassSecond = 0.0

    /// Filters one sample through the shelf and the high-pass.
    @inline(__always)
    mutating func process(_ x: Double, _ filter: KWeighting) -> Double {
        let shelf = filter.shelf
        let shelved = shelf.b0 * x + shelfFirst
        shelfFirst = shelf.b1 * x - shelf.a1 * shelved + shelfSecond
        shelfSecond = shelf.b2 * x - shelf.a2 * shelved
        let highPass = filter.highPass
        let output = shelved + highPassFirst
        highPassFirst = -2 * shelved - highPass.a1 * output + highPassSecond
        highPassSecond = shelved - highPass.a2 * output
        return output
    }
}

extension KWeightingState {
    /// States below this are set to zero between blocks: silence would otherwise let them decay
    /// into subnormal numbers, which x86 processors handle a hundred times slower. Their
    /// contribution to any reading is below 10⁻²⁰⁰.
    private static var flushThreshold: Double { 1e-100 }

    /// Sets states that have decayed to practically zero to exactly zero.
    mutating func flushTinyValues() {
        if shelfFirst.magnitude < Self.flushThreshold { shelfFirst = 0 }
        if shelfSecond.magnitude < Self.flushThreshold { shelfSecond = 0 }
        if highPassFirst.magnitude < Self.flushThreshold { highPassFirst = 0 }
        if highPassSecond.magnitude < Self.flushThreshold { highPassSecond = 0 }
    }
}
