/// How the classic LED meter lights (after the iOS LevelMeterView): pure
/// arithmetic on the 0…1 scale, no drawing.
///
/// With `n` LEDs, LED `i` spans `(i/n, (i+1)/n]`; its colour zone follows its upper edge
/// (green below 0.5, yellow below 0.8, red from 0.8); its intensity is 1 for the peak
/// LED, else `clamp((level − i/n)·n, 0, 1)`. The peak LED is `min(Int(peak·n), n−1)`
/// when peak > 0.
public enum LEDBar {
    /// The colour zone of an LED.
    public enum Zone: Sendable, Hashable { case green, yellow, red }

    /// One LED's look.
    public struct Light: Sendable, Hashable {
        public var zone: Zone
        /// 0 (off) … 1 (fully lit).
        public var intensity: Float
        public var isPeak: Bool
    }

    /// The lights of `count` LEDs for `level` and `peak` on the 0…1 scale.
    public static func lights(level: Float, peak: Float, count: Int) -> [Light] {
        guard count > 0 else { return [] }
        let n = Float(count)
        let peakIndex = peak > 0 ? min(Int(min(peak, 1) * n), count - 1) : nil
        return (0..<count).map { index in
            let upperEdge = Double(index + 1) / Double(count)
            let zone: Zone = upperEdge < 0.5 ? .green : upperEdge < 0.8 ? .yellow : .red
            let isPeak = index == peakIndex
            let raw = (level - Float(index) / n) * n
            let intensity = isPeak ? 1 : raw.isNaN ? 0 : min(max(raw, 0), 1)
            return Light(zone: zone, intensity: intensity, isPeak: isPeak)
        }
    }
}
