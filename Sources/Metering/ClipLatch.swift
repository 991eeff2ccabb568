/// A clip indicator that lights on a run of consecutive full-scale samples and stays lit.
///
/// One full-scale sample is often a loud but clean peak; several in a row mean the converter
/// ran out of range. Feed it `LevelMeter.longestFullScaleRun(forChannel:)` after each
/// `updateMeters()`; the meter counts runs across buffers and snapshots, so a clip split
/// between two buffers still counts once, whole.
public struct ClipLatch: Sendable, Equatable {
    /// How many consecutive full-scale samples light the latch.
    public let requiredRun: Int
    /// Whether the latch is lit.
    public private(set) var isLatched = false

    /// A latch that lights at `consecutiveFullScaleSamples` (at least 1; default 3).
    public init(consecutiveFullScaleSamples: Int = 3) {
        requiredRun = max(consecutiveFullScaleSamples, 1)
    }

    /// Lights the latch if `fullScaleRun` consecutive full-scale samples are enough.
    public mutating func observe(fullScaleRun: Int) {
        if fullScaleRun >= requiredRun { isLatched = true }
    }

    /// Lights the latch if any channel of the meter's latest snapshot clipped.
    public mutating func observe(_ meter: LevelMeter) {
        for channel in 0..<meter.channelCount {
            observe(fullScaleRun: meter.longestFullScaleRun(forChannel: channel))
        }
    }

    /// Puts the latch out.
    public mutating func reset() {
        isLatched = false
    }
}
