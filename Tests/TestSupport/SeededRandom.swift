import Foundation

/// The tests' SplitMix64 (`TestSupport`) as doubles, with Box–Muller: the same numbers on every run.
public struct SeededRandom {
    private var generator: SplitMix64

    public init(seed: UInt64) { generator = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15) }

    /// Uniform in (0, 1).
    public mutating func next() -> Double {
        (Double(generator.next() >> 11) + 0.5) / Double(1 << 53)
    }

    public mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * next()
    }

    public mutating func gaussian() -> Double {
        (-2 * log(next())).squareRoot() * cos(2 * .pi * next())
    }
}
