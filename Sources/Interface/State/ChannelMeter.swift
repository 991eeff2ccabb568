import Metering

/// One channel's meter as the screen shows it: the latest levels plus the peak hold.
public struct ChannelMeter: Sendable, Equatable {
    /// RMS level in dBFS.
    public var average: Float = Decibels.floor
    /// Peak of the last interval in dBFS.
    public var peak: Float = Decibels.floor
    /// The held (then decaying) peak in dBFS.
    public var heldPeak: Float = Decibels.floor
    public var peakHold = PeakHold()

    /// A meter whose peak is held `holdTime` seconds before it decays.
    public init(holdTime: Double = 1.0) {
        peakHold = PeakHold(holdTime: holdTime)
    }

    /// Takes a new reading at `time` (seconds).
    public mutating func update(_ level: ChannelLevel, at time: Double) {
        average = level.average
        peak = level.peak
        heldPeak = peakHold.update(peak: level.peak, at: time)
    }
}
