/// Loudness per ITU-R BS.1770-4 and EBU R128 of interleaved audio: momentary, short-term,
/// integrated (gated) loudness in LUFS and the loudness range (EBU Tech 3342) in LU.
///
/// Feed buffers with `consume(_:)` as they arrive and read the properties whenever a display
/// wants them; time is the audio itself, so tests need no clock. Internally the K-weighted,
/// channel-weighted energy is summed per 100 ms sub-block:
/// - momentary loudness is the mean over the latest 4 sub-blocks (400 ms), short-term over the
///   latest 30 (3 s); until that much audio has arrived they cover what there is, so a reading
///   starts with the first 100 ms instead of rising out of assumed silence;
/// - every completed sub-block from the fourth on closes a 400 ms gating block (75 % overlap)
///   for the integrated loudness, and from the thirtieth on a 3 s short-term value for the
///   loudness range (10 per second, the rate Tech 3342 asks for at least).
///
/// A sub-block is 1/10 s rounded to whole frames, the boundaries placed at ⌊k·rate/10⌋, so rates
/// that are not a multiple of 10 keep exact time on average.
///
/// Memory: each second adds 20 `Double`s (gating blocks and short-term values) — 1.4 MB for
/// ten hours; the arrays grow by doubling, so consuming allocates only now and then.
/// Sample rules are those of `LevelMeter`: NaN reads 0, a Float beyond ±1.0 reads ±1.0.
public struct LoudnessMeter: Sendable {
    /// The number of interleaved channels.
    public let channelCount: Int
    /// Frames per second.
    public let sampleRate: Int
    /// The weight Gᵢ of each channel in the loudness sum.
    public let channelWeights: [Double]

    /// The sample rates the meter accepts, in Hz.
    public static let supportedSampleRates = 8_000...768_000
    /// The shortest programme with an integrated loudness: one 400 ms gating block.
    public static let shortestMeasurable = 0.4

    let filter: KWeighting
    var filterStates: [KWeightingState]
    /// Σ y² per channel over the current sub-block.
    var channelEnergies: [Double]
    /// The channel the next consumed sample belongs to.
    var nextChannel = 0
    /// Frames consumed into the current sub-block.
    var framesInSubBlock = 0
    /// Frames the current sub-block holds when complete.
    var subBlockLength: Int
    var recentSubBlocks = RecentSubBlocks()
    /// Mean energies of the 400 ms gating blocks so far.
    private(set) var gatingBlockEnergies: [Double] = []
    /// Mean energies of the 3 s short-term windows so far, one per sub-block.
    private(set) var shortTermEnergies: [Double] = []
    private var largestMomentaryEnergy = 0.0
    private var largestShortTermEnergy = 0.0
    /// Whether the gating blocks and short-term values are kept for the integrated loudness
    /// and the loudness range (they grow by ≈ 160 bytes per second of audio).
    public let keepsHistory: Bool

    /// Whole frames consumed.
    public internal(set) var consumedFrames = 0

    /// A meter for `channels` interleaved channels with the BS.1770 weights for that count.
    ///
    /// - Parameters:
    ///   - channels: 1…32; see `standardChannelWeights(channels:)` for the weights.
    ///   - sampleRate: one of `supportedSampleRates`. Anything else stops the program: callers
    ///     check rates from files and devices first.
    ///   - keepsHistory: `false` for a live meter that runs for days and shows only momentary
    ///     and short-term loudness: its memory stays constant, and `integratedLoudness`,
    ///     `loudnessRange` and the maxima are always `nil`.
    public init(channels: Int, sampleRate: Int, keepsHistory: Bool = true) {
        self.init(
            sampleRate: sampleRate, channelWeights: Self.standardChannelWeights(channels: channels),
            keepsHistory: keepsHistory)
    }

    /// A meter with explicit channel weights, one per interleaved channel (1…32 of them, each
    /// finite and ≥ 0; 0 leaves a channel out, as BS.1770 does for LFE).
    public init(sampleRate: Int, channelWeights: [Double], keepsHistory: Bool = true) {
        precondition(
            (1...LevelMeter.maximumChannelCount).contains(channelWeights.count),
            "LoudnessMeter supports 1…\(LevelMeter.maximumChannelCount) channels, not \(channelWeights.count)")
        precondition(
            channelWeights.allSatisfy { $0.isFinite && $0 >= 0 }, "channel weights must be finite and ≥ 0")
        precondition(
            Self.supportedSampleRates.contains(sampleRate),
            "LoudnessMeter supports \(Self.supportedSampleRates) Hz, not \(sampleRate)")
        channelCount = channelWeights.count
        self.keepsHistory = keepsHistory
        self.sampleRate = sampleRate
        self.channelWeights = channelWeights
        filter = KWeighting(sampleRate: Double(sampleRate))
        filterStates = Array(repeating: KWeightingState(), count: channelCount)
        channelEnergies = Array(repeating: 0, count: channelCount)
        subBlockLength = sampleRate / RecentSubBlocks.perSecond
    }

    /// The loudness of the latest 400 ms, in LUFS: `nil` before the first 100 ms, −∞ for
    /// digital silence.
    public var momentaryLoudness: Double? {
        recentSubBlocks.meanEnergy(ofLatest: RecentSubBlocks.momentaryCount).map(LoudnessGating.loudness(ofEnergy:))
    }

    /// The loudness of the latest 3 s, in LUFS: `nil` before the first 100 ms, −∞ for
    /// digital silence.
    public var shortTermLoudness: Double? {
        recentSubBlocks.meanEnergy(ofLatest: RecentSubBlocks.shortTermCount).map(LoudnessGating.loudness(ofEnergy:))
    }

    /// The gated loudness of everything consumed, in LUFS: `nil` until a 400 ms block rises
    /// above the −70 LUFS absolute gate.
    public var integratedLoudness: Double? {
        LoudnessGating.integratedLoudness(blockEnergies: gatingBlockEnergies)
    }

    /// The loudness range (EBU Tech 3342) of everything consumed, in LU: `nil` until a 3 s
    /// window rises above the −70 LUFS absolute gate.
    public var loudnessRange: Double? {
        LoudnessGating.loudnessRange(shortTermEnergies: shortTermEnergies)
    }

    /// The highest momentary loudness of any complete 400 ms block, in LUFS (`nil` if none).
    public var maximumMomentaryLoudness: Double? {
        gatingBlockEnergies.isEmpty ? nil : LoudnessGating.loudness(ofEnergy: largestMomentaryEnergy)
    }

    /// The highest short-term loudness of any complete 3 s window, in LUFS (`nil` if none).
    public var maximumShortTermLoudness: Double? {
        shortTermEnergies.isEmpty ? nil : LoudnessGating.loudness(ofEnergy: largestShortTermEnergy)
    }

    /// Ends a sub-block: records its energy, and the gating block and short-term value that
    /// end with it.
    mutating func closeSubBlock() {
        var weighted = 0.0
        for channel in 0..<channelCount {
            weighted += channelWeights[channel] * channelEnergies[channel]
            channelEnergies[channel] = 0
        }
        recentSubBlocks.append(energy: weighted, frames: framesInSubBlock)
        framesInSubBlock = 0
        let completed = recentSubBlocks.completedCount
        let perSecond = RecentSubBlocks.perSecond
        subBlockLength = (completed + 1) * sampleRate / perSecond - completed * sampleRate / perSecond
        guard keepsHistory else { return }
        if completed >= RecentSubBlocks.momentaryCount,
            let energy = recentSubBlocks.meanEnergy(ofLatest: RecentSubBlocks.momentaryCount)
        {
            gatingBlockEnergies.append(energy)
            largestMomentaryEnergy = max(largestMomentaryEnergy, energy)
        }
        if completed >= RecentSubBlocks.shortTermCount,
            let energy = recentSubBlocks.meanEnergy(ofLatest: RecentSubBlocks.shortTermCount)
        {
            shortTermEnergies.append(energy)
            largestShortTermEnergy = max(largestShortTermEnergy, energy)
        }
    }
}

/// The energies and lengths of the latest 30 sub-blocks of 100 ms, in a ring.
struct RecentSubBlocks {
    static let perSecond = 10
    static let momentaryCount = 4
    static let shortTermCount = 30

    private var energies = Array(repeating: 0.0, count: shortTermCount)
    private var frames = Array(repeating: 0, count: shortTermCount)
    /// Sub-blocks completed since the start.
    private(set) var completedCount = 0

    mutating func append(energy: Double, frames count: Int) {
        let slot = completedCount % Self.shortTermCount
        energies[slot] = energy
        frames[slot] = count
        completedCount += 1
    }

    /// The mean energy per frame over the latest `count` sub-blocks (fewer if fewer exist),
    /// or `nil` when none has completed.
    func meanEnergy(ofLatest count: Int) -> Double? {
        let available = min(count, completedCount, Self.shortTermCount)
        guard available > 0 else { return nil }
        var energy = 0.0
        var frameCount = 0
        for back in 1...available {
            let slot = (completedCount - back) % Self.shortTermCount
            energy += energies[slot]
            frameCount += frames[slot]
        }
        return frameCount > 0 ? energy / Double(frameCount) : nil
    }
}
