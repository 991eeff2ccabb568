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
    /// The latest reading of each mode with a meter of its own (PPM, VU), dBFS.
    public var readings: [MeterMode: Float] = [:]

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

    /// Takes this channel's readings of the modes' meters from `readings`, where it has them.
    public mutating func update(_ readings: BallisticReadings, channel: Int) {
        for (mode, levels) in readings.levels where levels.indices.contains(channel) {
            self.readings[mode] = levels[channel]
        }
    }

    /// The bar's level in `mode` (dBFS): its meter's reading, or the RMS average for a mode
    /// without a meter (digital; loudness has rows of its own); the floor before a first reading.
    public func level(in mode: MeterMode) -> Float {
        guard mode.descriptor.meter != nil else { return average }
        return readings[mode] ?? Decibels.floor
    }
}
