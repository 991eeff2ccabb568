/// A 12 dB/octave Butterworth high-pass (one second-order section, Q 1/√2, from the bilinear
/// transform), one state per channel, run in Double: the rumble SpeexDSP's denoiser leaves. Its
/// lowest bands take only about 8.5 dB off noise below 100 Hz (measured on pink noise at 16 kHz,
/// −30 dB asked), and brown or fan noise has most of its power there. Second order, not fourth:
/// the steeper filter's phase shift in the voice's lowest bands cost STOI 0.004 on clean speech
/// and 0.002–0.004 on every enhanced case, for no lower floor (docs/PERFORMANCE.md).
struct LowCutFilter {
    /// One biquad's coefficients (a0 normalised to 1).
    struct Section {
        let b0, b1, b2, a1, a2: Double

        init(cutoff: Double, q: Double, sampleRate: Double) {
            let omega = 2 * Double.pi * cutoff / sampleRate
            let alpha = sinApproximation(omega) / (2 * q)
            let cosine = cosApproximation(omega)
            let a0 = 1 + alpha
            b0 = (1 + cosine) / 2 / a0
            b1 = -(1 + cosine) / a0
            b2 = (1 + cosine) / 2 / a0
            a1 = -2 * cosine / a0
            a2 = (1 - alpha) / a0
        }
    }

    let sections: [Section]
    let channels: Int
    /// Per channel and section: the two previous inputs and outputs (direct form I).
    private var memory: [Double]

    init(cutoff: Double, sampleRate: Int, channels: Int) {
        let rate = Double(sampleRate)
        sections = [Section(cutoff: cutoff, q: 0.707_106_8, sampleRate: rate)]
        self.channels = channels
        memory = [Double](repeating: 0, count: channels * sections.count * 4)
    }

    /// Filters `sample` of `channel`.
    mutating func filter(_ sample: Double, channel: Int) -> Double {
        var x = sample
        for (index, section) in sections.enumerated() {
            let base = (channel * sections.count + index) * 4
            let y = section.b0 * x + section.b1 * memory[base] + section.b2 * memory[base + 1]
                - section.a1 * memory[base + 2] - section.a2 * memory[base + 3]
            memory[base + 1] = memory[base]
            memory[base] = x
            memory[base + 3] = memory[base + 2]
            memory[base + 2] = y
            x = y
        }
        return x
    }
}

/// sin and cos by their Taylor series, for the small angles of a cutoff well under Nyquist
/// (no Foundation in this module; 80 Hz at 16 kHz is 0.031 rad, where ten terms are exact).
private func sinApproximation(_ x: Double) -> Double {
    var term = x, sum = x
    for n in 1..<10 {
        term *= -x * x / Double((2 * n) * (2 * n + 1))
        sum += term
    }
    return sum
}

private func cosApproximation(_ x: Double) -> Double {
    var term = 1.0, sum = 1.0
    for n in 1..<10 {
        term *= -x * x / Double((2 * n - 1) * (2 * n))
        sum += term
    }
    return sum
}
