/// True peak per ITU-R BS.1770-4 Annex 2 of interleaved audio, in dBTP, with the sample peak
/// and the clip count (`ClipRule`).
///
/// Each channel is oversampled ×4 below 96 kHz, ×2 from 96 kHz up to 192 kHz and not at all
/// above, by `TruePeakInterpolator`, and the largest magnitude of the oversampled signal is the
/// true peak. Working in floating point, the meter needs none of the 12.04 dB input attenuation
/// the standard suggests for fixed-point implementations.
///
/// Readings cover everything consumed since the meter was made. The interpolator runs
/// `tapsPerPhase / 2` samples behind the input, so the points between the last 8 samples are
/// not interpolated yet; the sample peak, which covers every sample, is a lower bound there,
/// and the reported true peak is never below the sample peak.
///
/// Sample rules are those of `LevelMeter`: NaN reads 0, a Float beyond ±1.0 reads ±1.0; a sample
/// counts as full scale from 32767 (Int16), 0x7FFFFF00 (Int32) or 1.0 (Float).
public struct TruePeakMeter: Sendable {
    /// The number of interleaved channels, 1…32.
    public let channelCount: Int
    /// Frames per second.
    public let sampleRate: Int
    /// The oversampling factor used at this rate: 4, 2 or 1.
    public var oversamplingFactor: Int { interpolator.factor }

    let interpolator: TruePeakInterpolator
    /// Per channel: `tapsPerPhase − 1` samples of history, then up to `chunkLength` new ones.
    var channelInputs: [Float]
    /// New samples waiting in each channel's input.
    var pendingCounts: [Int]
    /// Per channel: the largest magnitude of the oversampled phases 1…factor−1 so far (phase 0,
    /// the samples themselves, is in `samplePeaks`).
    var truePeaks: [Float]
    var samplePeaks: [Float]
    /// Chunks of one channel left uninterpolated because they could not raise the reading.
    var skippedChunkCount = 0
    /// Chunks of one channel interpolated in the half-way phase alone (the others could not
    /// raise the reading).
    var halfPhaseChunkCount = 0
    /// Blocks of eight instants left uncomputed in the chunks that were interpolated.
    var skippedBlockCount = 0
    /// Per channel: chunks still to interpolate without testing their blocks
    /// (`untestedChunksAfterAMiss` after a chunk whose tests skipped little).
    var blockTestPauses: [Int]
    static let untestedChunksAfterAMiss = 15
    /// The channel the next consumed sample belongs to.
    var nextChannel = 0

    /// Clips (`ClipRule`: runs of three full-scale samples) consumed, over all channels.
    public internal(set) var clipCount = 0
    /// Per channel: the run of full-scale samples that ends with its latest sample.
    var fullScaleRuns: [Int]

    /// Input samples gathered per channel before the filter runs over them.
    static let chunkLength = 512
    static var historyLength: Int { TruePeakInterpolator.tapsPerPhase - 1 }
    static var channelStride: Int { historyLength + chunkLength }

    /// The oversampling factor BS.1770-4 calls for at `sampleRate`: ×4 below 96 kHz, ×2 up to
    /// 192 kHz, ×1 above.
    public static func oversamplingFactor(sampleRate: Int) -> Int {
        sampleRate < 96_000 ? 4 : (sampleRate <= 192_000 ? 2 : 1)
    }

    /// A meter for `channels` interleaved channels (1…32) at `sampleRate` Hz.
    public init(channels: Int, sampleRate: Int) {
        precondition(
            (1...LevelMeter.maximumChannelCount).contains(channels),
            "TruePeakMeter supports 1…\(LevelMeter.maximumChannelCount) channels, not \(channels)")
        precondition(sampleRate > 0, "the sample rate must be positive, not \(sampleRate)")
        channelCount = channels
        self.sampleRate = sampleRate
        interpolator = TruePeakInterpolator(factor: Self.oversamplingFactor(sampleRate: sampleRate))
        channelInputs = Array(repeating: 0, count: channels * Self.channelStride)
        pendingCounts = Array(repeating: 0, count: channels)
        truePeaks = Array(repeating: 0, count: channels)
        samplePeaks = Array(repeating: 0, count: channels)
        fullScaleRuns = Array(repeating: 0, count: channels)
        blockTestPauses = Array(repeating: 0, count: channels)
    }

    /// The true peak of `channel` as an amplitude (1.0 = full scale); 0 outside 0..<channelCount.
    public func truePeakAmplitude(forChannel channel: Int) -> Double {
        guard truePeaks.indices.contains(channel) else { return 0 }
        return Double(max(truePeakIncludingPending(channel: channel), samplePeaks[channel]))
    }

    /// The true peak of `channel` in dBTP (−160 for silence and channels that do not exist).
    public func truePeakLevel(forChannel channel: Int) -> Float {
        Decibels.fromAmplitude(truePeakAmplitude(forChannel: channel))
    }

    /// The largest true peak of any channel, in dBTP (−160 for silence).
    public var truePeakLevel: Float {
        Decibels.fromAmplitude((0..<channelCount).map(truePeakAmplitude(forChannel:)).max() ?? 0)
    }

    /// The largest sample magnitude of `channel` in dBFS (−160 for silence and channels that do
    /// not exist).
    public func samplePeakLevel(forChannel channel: Int) -> Float {
        guard samplePeaks.indices.contains(channel) else { return Decibels.floor }
        return Decibels.fromAmplitude(Double(samplePeaks[channel]))
    }

    /// The largest sample magnitude of any channel, in dBFS (−160 for silence).
    public var samplePeakLevel: Float {
        Decibels.fromAmplitude(Double(samplePeaks.max() ?? 0))
    }
}
