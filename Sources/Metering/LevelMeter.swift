/// Per-channel peak and average (RMS) levels of interleaved audio, in dBFS.
///
/// The counterpart of AVAudioRecorder's metering: feed buffers with `consume(_:)` as they
/// arrive, call `updateMeters()` when the display wants a reading, then read
/// `averagePower(forChannel:)` and `peakPower(forChannel:)`. Each snapshot covers the samples
/// consumed since the previous one.
///
/// Buffers are interleaved (L, R, L, R, …) and may have any length: a buffer that ends in the
/// middle of a frame leaves the meter expecting the next channel, so the following buffer
/// continues on the right channel. Int16, Int32 (24-bit audio left-justified in 32 bits, as
/// ALSA `S32_LE` and libsndfile deliver it; full scale is 2³¹) and Float (full scale 1.0) are
/// read directly.
///
/// Rules for samples that are not plain audio, chosen so one bad sample never poisons a meter:
/// - a NaN sample counts as a sample of silence (0);
/// - a Float sample beyond ±1.0, ±infinity included, counts as full scale (1.0): the meter shows
///   what a fixed-point converter would have recorded.
///
/// Clipping: for each channel the meter counts consecutive full-scale samples (magnitude at
/// least 32767 for Int16, 0x7FFFFF00 for Int32, 1.0 for Float), across buffers and snapshots.
/// `clips(forChannel:)` reports the clips (`ClipRule`: runs of three) completed in the latest
/// snapshot, each counted once however the buffers and snapshots split it;
/// `longestFullScaleRun(forChannel:)` the longest run.
///
/// Performance: the samples are read eight at a time as `SIMD8<Float>`, squared and summed per
/// lane in blocks of about 2,000 samples, and the lanes are folded into their channels at the end
/// of each block; partial sums go into `Double`. Blocks that hold a full-scale, over-range or
/// non-finite sample are measured again one sample at a time, so the rules above cost nothing
/// on ordinary audio. The meter never allocates while consuming.
public struct LevelMeter: Sendable {
    /// The number of interleaved channels, 1…32.
    public let channelCount: Int

    var accumulators: [ChannelAccumulator]
    /// The channel the next consumed sample belongs to.
    var nextChannel = 0
    /// Vectors of 8 samples after which the lane-to-channel pattern repeats: the channel count
    /// divided by its greatest common divisor with 8 (1 for 1, 2, 4 and 8 channels).
    let lanePeriod: Int

    private var averagePowers: [Float]
    private var peakPowers: [Float]
    private var longestFullScaleRuns: [Int]
    private var clipCounts: [Int]

    /// The most channels a meter measures.
    public static let maximumChannelCount = 32

    /// A meter for interleaved audio with `channels` channels.
    ///
    /// - Parameter channels: 1…32. Anything else is a programming error and stops the program:
    ///   callers validate device channel counts before metering them.
    public init(channels: Int) {
        precondition(
            (1...Self.maximumChannelCount).contains(channels),
            "LevelMeter supports 1…\(Self.maximumChannelCount) channels, not \(channels)")
        channelCount = channels
        accumulators = Array(repeating: ChannelAccumulator(), count: channels)
        averagePowers = Array(repeating: Decibels.floor, count: channels)
        peakPowers = Array(repeating: Decibels.floor, count: channels)
        longestFullScaleRuns = Array(repeating: 0, count: channels)
        clipCounts = Array(repeating: 0, count: channels)
        var divisor = 8
        var remainder = channels % divisor
        var dividend = channels
        while remainder != 0 {
            dividend = divisor
            divisor = remainder
            remainder = dividend % divisor
        }
        lanePeriod = channels / divisor
    }

    /// Measures interleaved 16-bit samples (full scale 32768).
    public mutating func consume(_ samples: UnsafeBufferPointer<Int16>) {
        accumulate(samples)
    }

    /// Measures interleaved 32-bit samples, 24-bit audio left-justified (full scale 2³¹).
    public mutating func consume(_ samples: UnsafeBufferPointer<Int32>) {
        accumulate(samples)
    }

    /// Measures interleaved floating-point samples (full scale 1.0).
    public mutating func consume(_ samples: UnsafeBufferPointer<Float>) {
        accumulate(samples)
    }

    /// Takes a snapshot of the levels since the previous snapshot and starts a new interval.
    ///
    /// A channel that received no samples reads −160 dB.
    public mutating func updateMeters() {
        for channel in 0..<channelCount {
            let accumulator = accumulators[channel]
            peakPowers[channel] = Decibels.fromPower(accumulator.peakSquare)
            averagePowers[channel] =
                accumulator.sampleCount > 0
                ? Decibels.fromPower(accumulator.sumOfSquares / Double(accumulator.sampleCount))
                : Decibels.floor
            longestFullScaleRuns[channel] = accumulator.longestFullScaleRun
            clipCounts[channel] = accumulator.clips
            accumulators[channel].startInterval()
        }
    }

    /// The RMS level of `channel` in the latest snapshot, in dBFS (−160…0).
    ///
    /// A channel outside 0..<channelCount reads −160 dB.
    public func averagePower(forChannel channel: Int) -> Float {
        averagePowers.indices.contains(channel) ? averagePowers[channel] : Decibels.floor
    }

    /// The peak level of `channel` in the latest snapshot, in dBFS (−160…0).
    ///
    /// A channel outside 0..<channelCount reads −160 dB.
    public func peakPower(forChannel channel: Int) -> Float {
        peakPowers.indices.contains(channel) ? peakPowers[channel] : Decibels.floor
    }

    /// The longest run of consecutive full-scale samples in `channel` in the latest snapshot.
    ///
    /// A run that began before the previous snapshot counts with its full length. A channel
    /// outside 0..<channelCount reads 0.
    public func longestFullScaleRun(forChannel channel: Int) -> Int {
        longestFullScaleRuns.indices.contains(channel) ? longestFullScaleRuns[channel] : 0
    }

    /// The clips (`ClipRule`) `channel` completed in the latest snapshot: a run that began
    /// before the previous snapshot counts in the one where it reached three samples. A channel
    /// outside 0..<channelCount reads 0.
    public func clips(forChannel channel: Int) -> Int {
        clipCounts.indices.contains(channel) ? clipCounts[channel] : 0
    }
}
