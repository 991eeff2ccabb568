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
    /// IEC 60268-10 type I indication in dBFS (the `ppm1` mode's bar).
    public var ppmTypeI: Float = Decibels.floor
    /// IEC 60268-10 type II indication in dBFS (the `ppm2` mode's bar).
    public var ppmTypeII: Float = Decibels.floor
    /// VU needle in dBFS (the `vu` mode's bar).
    public var vu: Float = Decibels.floor

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

    /// Takes this channel's PPM and VU readings from `readings`, if it has them.
    public mutating func update(_ readings: BallisticReadings, channel: Int) {
        if readings.ppmTypeI.indices.contains(channel) { ppmTypeI = readings.ppmTypeI[channel] }
        if readings.ppmTypeII.indices.contains(channel) { ppmTypeII = readings.ppmTypeII[channel] }
        if readings.vu.indices.contains(channel) { vu = readings.vu[channel] }
    }

    /// The bar's level in `mode` (dBFS); the loudness mode has rows of its own and reads the average here.
    public func level(in mode: MeterMode) -> Float {
        switch mode {
        case .digital, .loudness: average
        case .ppm1: ppmTypeI
        case .ppm2: ppmTypeII
        case .vu: vu
        }
    }
}
