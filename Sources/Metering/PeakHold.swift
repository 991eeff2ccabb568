/// A peak level that holds, then falls: the ballistics of a digital peak meter.
///
/// With the defaults these are the figures of IEC 60268-18 (digital audio peak level meter):
/// instantaneous rise (every sample peak counts), hold 1.0 s (the standard: 1.0 ± 0.5 s) and
/// a return of 20 dB in 1.7 s (1.7 ± 0.3 s) at a constant rate in dB, as quoted from the
/// standard in flumotion's `doc/random/vumeter` notes.
///
/// A new peak at or above the displayed value is shown at once and held for `holdTime`
/// seconds; after that the displayed value falls at `decayRate` dB per second until a louder
/// peak arrives or it reaches the −160 dB floor. Time is passed in with every call (seconds on
/// any monotonic clock the caller likes), so the meter never reads a clock and tests step time.
public struct PeakHold: Sendable, Equatable {
    /// Seconds a peak stays before it starts to fall.
    public let holdTime: Double
    /// Decibels per second the value falls after the hold.
    public let decayRate: Double

    private var heldPeak: Float = Decibels.floor
    private var heldSince: Double = -.infinity

    /// The default fall: 20 dB in 1.7 s.
    public static let standardDecayRate = 20 / 1.7

    /// A peak hold with the given timing; negative or NaN values count as 0.
    public init(holdTime: Double = 1.0, decayRate: Double = PeakHold.standardDecayRate) {
        self.holdTime = holdTime > 0 ? holdTime : 0
        self.decayRate = decayRate > 0 ? decayRate : 0
    }

    /// Feeds the peak measured at `time` and returns the value to display.
    @discardableResult
    public mutating func update(peak: Float, at time: Double) -> Float {
        if peak >= power(at: time) {
            heldPeak = max(peak, Decibels.floor)
            heldSince = time
        }
        return power(at: time)
    }

    /// The value to display at `time`, in dBFS. A time before the latest peak counts as the
    /// moment of that peak.
    public func power(at time: Double) -> Float {
        let elapsed = time - heldSince
        guard elapsed > holdTime else { return heldPeak }
        let fallen = Double(heldPeak) - (elapsed - holdTime) * decayRate
        return max(Float(fallen), Decibels.floor)
    }

    /// Forgets the held peak.
    public mutating func reset() {
        heldPeak = Decibels.floor
        heldSince = -.infinity
    }
}
