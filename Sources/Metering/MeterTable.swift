import Glibc
/// A lookup from dBFS to a 0…1 meter position, as in Apple's classic MeterTable.
///
/// Entry `i` holds the position of `dB_i = i · minDecibels / (tableSize − 1)`:
/// `((10^(dB_i/20) − minAmp) / (1 − minAmp))^(1/root)` with `minAmp = 10^(minDecibels/20)`.
/// A root of 1 is linear in amplitude; 2 (the default) spreads quiet levels further apart.
/// The arithmetic follows the original C++ exactly: the resolution and scale factor are `Float`,
/// the entries are computed in `Double` and stored as `Float`, and a lookup truncates
/// `decibels · scaleFactor` towards zero.
///
/// Two departures, both at edges where the original misbehaves: the last entry, where rounding
/// can make the amplitude difference a tiny negative number (the C code then stores NaN), holds
/// 0; and a lookup index is kept inside the table.
public struct MeterTable: Sendable, Equatable {
    /// The level that maps to 0; anything quieter also reads 0.
    public let minDecibels: Float
    /// The number of entries.
    public let tableSize: Int
    /// The root applied to the normalised amplitude.
    public let root: Float

    /// Decibels per entry (negative), `minDecibels / (tableSize − 1)` in `Float`.
    let decibelResolution: Float
    /// Entries per decibel (negative), `1 / decibelResolution`.
    let scaleFactor: Float
    let table: [Float]

    /// The largest table accepted; more entries than this add nothing a screen could show.
    public static let maximumTableSize = 100_000

    /// Builds the table.
    ///
    /// These values may come from a configuration file, so unusable ones are replaced rather than
    /// trapped on: a `minDecibels` that is not negative and finite becomes −60, a `tableSize`
    /// is clamped to 2…100,000, and a `root` that is not positive and finite becomes 2.
    public init(minDecibels: Float = -60, tableSize: Int = 300, root: Float = 2) {
        let minDecibels = minDecibels < 0 && minDecibels.isFinite ? minDecibels : -60
        let tableSize = min(max(tableSize, 2), Self.maximumTableSize)
        let root = root > 0 && root.isFinite ? root : 2
        self.minDecibels = minDecibels
        self.tableSize = tableSize
        self.root = root
        decibelResolution = minDecibels / Float(tableSize - 1)
        scaleFactor = Float(1 / Double(decibelResolution))

        let minAmplitude = pow(10, 0.05 * Double(minDecibels))
        let inverseAmplitudeRange = 1 / (1 - minAmplitude)
        let reciprocalRoot = 1 / Double(root)
        let resolution = Double(decibelResolution)
        table = (0..<tableSize).map { index in
            let decibels = Double(index) * resolution
            let amplitude = pow(10, 0.05 * decibels)
            let adjustedAmplitude = max((amplitude - minAmplitude) * inverseAmplitudeRange, 0)
            return Float(pow(adjustedAmplitude, reciprocalRoot))
        }
    }

    /// The meter position (0…1) of a level in dBFS.
    ///
    /// 0 below `minDecibels` (and for NaN), 1 at or above 0 dB.
    public func value(forPower decibels: Float) -> Float {
        guard decibels >= minDecibels else { return 0 }
        guard decibels < 0 else { return 1 }
        let index = Int(decibels * scaleFactor)
        return table[min(index, tableSize - 1)]
    }
}
