/// Watches an input's samples for the faults a person can fix at the mixer or the
/// microphone, and says which one applies now (`diagnosis`).
///
/// Feed interleaved samples with `consume(_:)` as they arrive. Time is the audio's own:
/// frames consumed ÷ sample rate, so the same samples always give the same conclusion. The
/// samples are judged in blocks of 50 ms (`blockDuration`); the diagnosis changes only at
/// the end of a block, so a finding is at most one block late.
///
/// The findings, precisely (levels on the 1.0 = full scale convention of `LevelMeter`; NaN
/// reads as 0, a Float beyond ±1 as ±1):
/// - **flat**: a channel is flat while all its samples since some moment stay within
///   `flatTolerance` of each other (one 16-bit step): digital silence (every sample exactly
///   0) and a constant DC level both are. A block whose samples spread wider ends the flat
///   stretch.
/// - `.silent`: every channel has been flat for at least `silenceTime` (2 s). Clears as soon
///   as any channel has sound again, so fixing the mixer shows at once.
/// - `.channelSilent`: some channels have been flat for at least `silenceTime` while another
///   has not. Clears as soon as the channel has sound again.
/// - `.tooHot`: a block with sound (not flat within the block) holds a full-scale sample (one
///   is enough: this is advice about headroom, not a clip count, see `ClipRule`) or a peak at or above `hotPeak` (−3 dBFS: less
///   than 3 dB of headroom). Appears at the end of that block and stays `hotHoldTime` (3 s)
///   after the last such block, so a person can read it.
/// - `.tooQuiet`: speech without level. A block is speech when some channel's RMS, DC
///   removed, is above `speechFloor` (−60 dBFS: above the noise floor of a quiet room). Too
///   quiet when no peak has reached `quietPeak` (−30 dBFS) for `quietTime` (10 s), and the
///   last `quietTime` held at least `minimumSpeech` (1 s) of speech blocks. Clears at once
///   when a peak reaches −30 dBFS, or when the speech stops (less than 1 s of it in the
///   last 10 s): then there is nothing to judge.
///
/// When several apply, the first in `InputDiagnosis`'s order wins (silent, channel silent,
/// too hot, too quiet). The diagnostics never allocate while consuming.
public struct InputDiagnostics: Sendable {
    /// Samples within this of each other (one 16-bit step, 1/32768) count as flat.
    public static let flatTolerance: Float = 1.0 / 32768
    /// How long every channel, or one channel, must stay flat to be called silent (seconds).
    public static let silenceTime = 2.0
    /// Peaks at or above this (dBFS) leave too little headroom.
    public static let hotPeak: Float = -3
    /// How long "too hot" stays after the last hot peak (seconds).
    public static let hotHoldTime = 3.0
    /// Speech whose peaks stay below this (dBFS) is too quiet.
    public static let quietPeak: Float = -30
    /// How long speech peaks must stay below `quietPeak` (seconds).
    public static let quietTime = 10.0
    /// A block with a channel's RMS (DC removed) above this (dBFS) counts as speech.
    public static let speechFloor: Float = -60
    /// How much speech the last `quietTime` must hold to judge its level (seconds).
    public static let minimumSpeech = 1.0
    /// The length of the blocks the samples are judged in (seconds).
    public static let blockDuration = 0.05

    /// The number of interleaved channels.
    public let channelCount: Int
    /// Frames per second.
    public let sampleRate: Int
    /// What applies now; `nil` when the input looks fine (or there is not enough to judge).
    public private(set) var diagnosis: InputDiagnosis?
    /// Frames consumed so far.
    public private(set) var framesConsumed: Int64 = 0

    let blockFrames: Int
    private let silenceFrames: Int64
    private let hotHoldFrames: Int64
    private let quietFrames: Int64
    private let minimumSpeechBlocks: Int
    private let hotAmplitude: Float
    private let quietAmplitude: Float
    private let speechMeanSquare: Double

    /// The block being filled, per channel.
    var blocks: [BlockAccumulator]
    /// The channel the next consumed sample belongs to.
    var nextChannel = 0
    /// Frames in the block being filled.
    var framesInBlock = 0
    /// Each channel's flat stretch.
    private var flats: [FlatStretch]
    /// Whether each of the last `quietTime` of blocks was speech (a ring) and how many were.
    private var speechBlocks: [Bool]
    private var speechBlockIndex = 0
    private var speechBlockCount = 0
    /// Frames since the end of the last block that peaked at `quietPeak` or above.
    private var framesSinceLoud: Int64 = 0
    /// Frames since the end of the last hot block; `nil` before the first.
    private var framesSinceHot: Int64?

    /// Diagnostics for interleaved audio of `channels` channels at `sampleRate` frames per second.
    ///
    /// - Parameters:
    ///   - channels: 1…32 (`LevelMeter.maximumChannelCount`). Anything else is a programming
    ///     error and stops the program: callers validate device formats first.
    ///   - sampleRate: positive; the same rule applies.
    public init(channels: Int, sampleRate: Int) {
        precondition(
            (1...LevelMeter.maximumChannelCount).contains(channels),
            "InputDiagnostics supports 1…\(LevelMeter.maximumChannelCount) channels, not \(channels)")
        precondition(sampleRate > 0, "InputDiagnostics needs a positive sample rate, not \(sampleRate)")
        channelCount = channels
        self.sampleRate = sampleRate
        blockFrames = max(Int((Double(sampleRate) * Self.blockDuration).rounded()), 1)
        let rate = Double(sampleRate)
        silenceFrames = Int64((Self.silenceTime * rate).rounded())
        hotHoldFrames = Int64((Self.hotHoldTime * rate).rounded())
        quietFrames = Int64((Self.quietTime * rate).rounded())
        let windowBlocks = max(Int((Self.quietTime * rate / Double(blockFrames)).rounded(.up)), 1)
        minimumSpeechBlocks = max(Int((Self.minimumSpeech * rate / Double(blockFrames)).rounded(.up)), 1)
        hotAmplitude = Float(Decibels.toAmplitude(Double(Self.hotPeak)))
        quietAmplitude = Float(Decibels.toAmplitude(Double(Self.quietPeak)))
        speechMeanSquare = Decibels.toAmplitude(2 * Double(Self.speechFloor))
        blocks = Array(repeating: BlockAccumulator(), count: channels)
        flats = Array(repeating: FlatStretch(), count: channels)
        speechBlocks = Array(repeating: false, count: windowBlocks)
    }

    /// Judges interleaved 16-bit samples (full scale 32768).
    public mutating func consume(_ samples: UnsafeBufferPointer<Int16>) {
        accumulate(samples)
    }

    /// Judges interleaved 32-bit samples, 24-bit audio left-justified (full scale 2³¹).
    public mutating func consume(_ samples: UnsafeBufferPointer<Int32>) {
        accumulate(samples)
    }

    /// Judges interleaved floating-point samples (full scale 1.0).
    public mutating func consume(_ samples: UnsafeBufferPointer<Float>) {
        accumulate(samples)
    }

    /// Takes in the block just filled and decides the diagnosis again.
    mutating func finishBlock() {
        let frames = Int64(framesInBlock)
        framesConsumed += frames
        var hot = false
        var loud = false
        var speech = false
        for channel in 0..<channelCount {
            let block = blocks[channel]
            flats[channel].extend(with: block, frames: frames)
            let hasSound = block.high - block.low > Self.flatTolerance
            if hasSound, block.hasFullScale || block.peak >= hotAmplitude { hot = true }
            if block.peak >= quietAmplitude { loud = true }
            if block.variance > speechMeanSquare { speech = true }
            blocks[channel] = BlockAccumulator()
        }
        framesInBlock = 0

        framesSinceHot = hot ? 0 : framesSinceHot.map { $0 + frames }
        framesSinceLoud = loud ? 0 : framesSinceLoud + frames
        if speechBlocks[speechBlockIndex] { speechBlockCount -= 1 }
        speechBlocks[speechBlockIndex] = speech
        if speech { speechBlockCount += 1 }
        speechBlockIndex = (speechBlockIndex + 1) % speechBlocks.count

        diagnosis = decide()
    }

    private func decide() -> InputDiagnosis? {
        let silentChannels = flats.indices.filter { flats[$0].frames >= silenceFrames }
        if silentChannels.count == channelCount { return .silent }
        if !silentChannels.isEmpty { return .channelSilent(channels: silentChannels, channelCount: channelCount) }
        if let framesSinceHot, framesSinceHot < hotHoldFrames { return .tooHot }
        if framesSinceLoud >= quietFrames, speechBlockCount >= minimumSpeechBlocks { return .tooQuiet }
        return nil
    }
}

/// One channel's samples in the block being filled, normalised to 1.0 = full scale.
struct BlockAccumulator: Sendable {
    var low: Float = .infinity
    var high: Float = -.infinity
    var peak: Float = 0
    var hasFullScale = false
    var sum: Double = 0
    var sumOfSquares: Double = 0
    var count = 0

    /// The mean square with the mean (DC) taken out: the power of what moves.
    var variance: Double {
        guard count > 0 else { return 0 }
        let mean = sum / Double(count)
        return max(sumOfSquares / Double(count) - mean * mean, 0)
    }
}

/// How long a channel has stayed flat, and between which values.
private struct FlatStretch: Sendable {
    var low: Float = .infinity
    var high: Float = -.infinity
    var frames: Int64 = 0

    /// Adds a block: the stretch grows if the block keeps within the tolerance of it, else
    /// a new stretch starts with the block (or none, if the block itself is not flat).
    mutating func extend(with block: BlockAccumulator, frames blockFrames: Int64) {
        guard block.count > 0 else { return }
        let newLow = min(low, block.low)
        let newHigh = max(high, block.high)
        if newHigh - newLow <= InputDiagnostics.flatTolerance {
            low = newLow
            high = newHigh
            frames += blockFrames
        } else if block.high - block.low <= InputDiagnostics.flatTolerance {
            low = block.low
            high = block.high
            frames = blockFrames
        } else {
            self = FlatStretch()
        }
    }
}
