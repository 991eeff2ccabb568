import Glibc
/// The gated measurements of ITU-R BS.1770-4 and EBU Tech 3342, over lists of block energies.
///
/// An energy is a block's channel-weighted mean square of K-weighted samples (Σ Gᵢ·zᵢ); its
/// loudness is −0.691 + 10·log10(energy) LUFS.
enum LoudnessGating {
    /// The loudness offset of BS.1770: −0.691 dB makes a 997 Hz sine read its RMS level.
    static let offset = -0.691
    /// Blocks at or below −70 LUFS are silence and never count (BS.1770 and Tech 3342).
    static let absoluteGate = -70.0
    /// Integrated loudness drops blocks more than 10 LU below the mean of the ungated ones.
    static let integratedRelativeGate = -10.0
    /// Loudness range drops short-term values more than 20 LU below their mean.
    static let rangeRelativeGate = -20.0
    /// The loudness range spans these percentiles of the gated short-term values.
    static let rangeLowPercentile = 0.10
    static let rangeHighPercentile = 0.95

    /// The loudness in LUFS of a channel-weighted mean square; −∞ for 0.
    static func loudness(ofEnergy energy: Double) -> Double {
        guard energy > 0 else { return -.infinity }
        return offset + 10 * log10(energy)
    }

    /// The energy whose loudness is `loudness` LUFS.
    static func energy(ofLoudness loudness: Double) -> Double {
        pow(10, (loudness - offset) / 10)
    }

    /// The integrated loudness (BS.1770-4 §2.8) of 400 ms gating blocks, or `nil` when no block
    /// is above the absolute gate.
    static func integratedLoudness(blockEnergies: [Double]) -> Double? {
        let absoluteThreshold = energy(ofLoudness: absoluteGate)
        guard let ungatedMean = mean(of: blockEnergies, above: absoluteThreshold) else { return nil }
        let relativeThreshold = ungatedMean * pow(10, integratedRelativeGate / 10)
        let threshold = max(absoluteThreshold, relativeThreshold)
        return mean(of: blockEnergies, above: threshold).map(loudness(ofEnergy:))
    }

    /// The loudness range (EBU Tech 3342) of 3 s short-term energies, in LU, or `nil` when no
    /// value is above the absolute gate.
    ///
    /// Percentiles are nearest-rank on the sorted gated values, as libebur128 takes them.
    static func loudnessRange(shortTermEnergies: [Double]) -> Double? {
        let absoluteThreshold = energy(ofLoudness: absoluteGate)
        guard let ungatedMean = mean(of: shortTermEnergies, above: absoluteThreshold) else { return nil }
        let relativeThreshold = ungatedMean * pow(10, rangeRelativeGate / 10)
        let threshold = max(absoluteThreshold, relativeThreshold)
        let gated = shortTermEnergies.filter { $0 > threshold }.sorted()
        guard !gated.isEmpty else { return nil }
        let last = Double(gated.count - 1)
        let low = gated[Int(last * rangeLowPercentile + 0.5)]
        let high = gated[Int(last * rangeHighPercentile + 0.5)]
        return loudness(ofEnergy: high) - loudness(ofEnergy: low)
    }

    /// The mean of the energies above `threshold`, or `nil` when there are none.
    private static func mean(of energies: [Double], above threshold: Double) -> Double? {
        var sum = 0.0
        var count = 0
        for energy in energies where energy > threshold {
            sum += energy
            count += 1
        }
        return count > 0 ? sum / Double(count) : nil
    }
}
