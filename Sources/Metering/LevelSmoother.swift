import Glibc
/// One-pole smoothing with separate attack and release time constants.
///
/// Rising input moves the output towards it with the attack time constant, falling input
/// with the release one: after one time constant the output has covered 1 − 1/e (63 %) of a
/// step. The elapsed time is passed in with each value, and the smoothing is exact for any
/// step size: two steps of 5 ms give the same result as one of 10 ms. Used for voice
/// activation and for calmer displays; works on whatever unit it is given (dB or linear).
public struct LevelSmoother: Sendable, Equatable {
    /// Seconds for rising input; 0 follows rises at once.
    public let attackTime: Double
    /// Seconds for falling input; 0 follows falls at once.
    public let releaseTime: Double
    /// The smoothed value, or nil before the first input.
    public private(set) var value: Float?

    /// A smoother with the given time constants; negative or NaN values count as 0.
    public init(attackTime: Double, releaseTime: Double) {
        self.attackTime = attackTime > 0 ? attackTime : 0
        self.releaseTime = releaseTime > 0 ? releaseTime : 0
    }

    /// Feeds `input`, `elapsed` seconds after the previous input, and returns the smoothed value.
    ///
    /// The first input is taken as it is, and so is a non-finite input and the first finite one
    /// after it (smoothing towards or away from infinity would never settle). A negative or NaN
    /// `elapsed` counts as no time.
    @discardableResult
    public mutating func update(_ input: Float, elapsed: Double) -> Float {
        guard let current = value, current.isFinite, input.isFinite else {
            value = input
            return input
        }
        let timeConstant = input > current ? attackTime : releaseTime
        let step = elapsed > 0 ? elapsed : 0
        let smoothed: Float
        if timeConstant == 0 {
            smoothed = input
        } else {
            let remaining = exp(-step / timeConstant)
            smoothed = input + Float(Double(current - input) * remaining)
        }
        value = smoothed
        return smoothed
    }

    /// Forgets the smoothed value.
    public mutating func reset() {
        value = nil
    }
}
