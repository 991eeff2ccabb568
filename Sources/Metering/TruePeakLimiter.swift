import Glibc
/// A gain followed by a look-ahead true-peak limiter, for a loudness-normalised export
/// (`LoudnessNormalization`): interleaved Float frames in, the same frames out, `latency`
/// frames later, each multiplied by `gain` and, where that would cross `ceiling` in true
/// peak, by less.
///
/// Detection is oversampled as `TruePeakMeter` measures (×4 below 96 kHz, ×2 to 192 kHz, the
/// same Kaiser-windowed sinc of `TruePeakInterpolator`), so what the limiter holds under the
/// ceiling is what `analyze` reads. Every frame gets the gain that keeps its own sample and the
/// points between it and its neighbours at or under the ceiling; all channels share one gain
/// (the stereo image stays).
///
/// The gain curve: the least required gain over a window reaching `lookAhead + 8` frames
/// ahead and 8 behind, averaged over `lookAhead + 1` frames, so the gain glides down over the
/// look-ahead (5 ms) before a peak and is at or under every requirement in the 16 frames
/// around it that the interpolation reads; then a release that lets it rise back towards the
/// full gain with a time constant of `releaseTime` (150 ms), slow enough that speech does not
/// pump between syllables. Nothing is ever clipped: a sample is only ever scaled down.
///
/// Memory is constant: a ring of `latency` frames and the window's queues.
public struct TruePeakLimiter: Sendable {
    public let channelCount: Int
    public let sampleRate: Int
    /// The gain before limiting, as a factor.
    public let gain: Float
    /// The true-peak ceiling, as a factor of full scale.
    public let ceiling: Float
    /// Frames of look-ahead the gain glides down over.
    public let lookAhead: Int
    /// Frames between a frame going in and coming out.
    public var latency: Int { lookAhead + 2 * Self.reach }

    /// How long the gain takes to come back (its time constant), in seconds.
    public static let releaseTime = 0.15
    /// How long the gain takes to go down before a peak, in seconds.
    public static let lookAheadTime = 0.005
    /// Frames the interpolation reads on each side of a point between two frames.
    static let reach = TruePeakInterpolator.tapsPerPhase / 2

    /// The largest gain reduction so far, as a factor (1: none).
    public private(set) var smallestGain: Float = 1
    /// Frames whose gain was reduced below `gain`.
    public private(set) var limitedFrames = 0

    private let phases: [[Float]]
    /// Σ|c| of the computed phases: no point between frames exceeds it times the largest
    /// magnitude of the 16 frames around it.
    private let absoluteGain: Float
    private let releaseCoefficient: Double
    /// The last 16 frames after `gain`, per channel, written twice (at `i` and `i + 16` of
    /// the channel's 32) so that the 16 from `historyStart` are them, oldest first.
    private var history: [Float]
    private var historyStart = 0
    /// Frames waiting for their gain: `latency + 1` slots of `channelCount` samples.
    private var delay: [Float]
    private var framesIn = 0
    /// The largest magnitude between the previous frame and the one before it.
    private var previousBetween: Float = 0
    /// The sliding minimum of the required gains: (index, gain), gains increasing.
    private var minimumQueue: [(Int, Double)] = []
    private var minimumQueueStart = 0
    /// The last `lookAhead + 1` minima and their sum.
    private var boxValues: [Double]
    private var boxSum: Double
    private var requirementsIn = 0
    private var released = 1.0
    private var framesOut = 0

    /// - Parameters:
    ///   - gain: the factor every sample is multiplied by (finite, > 0).
    ///   - ceiling: the true peak not to cross, as a factor of full scale (> 0, ≤ 1).
    public init(channels: Int, sampleRate: Int, gain: Float, ceiling: Float) {
        precondition(channels >= 1 && sampleRate > 0 && gain.isFinite && gain > 0 && ceiling > 0)
        channelCount = channels
        self.sampleRate = sampleRate
        self.gain = gain
        self.ceiling = ceiling
        let factor = TruePeakMeter.oversamplingFactor(sampleRate: sampleRate)
        phases = (1..<max(factor, 1)).map { phase in
            TruePeakInterpolator.phaseCoefficients(phase: phase, factor: factor).reversed().map { Float($0) }
        }
        absoluteGain = phases.map { $0.reduce(0) { $0 + $1.magnitude } }.max() ?? 1
        lookAhead = max(1, Int((Self.lookAheadTime * Double(sampleRate)).rounded()))
        releaseCoefficient = 1 - exp(-1 / (Self.releaseTime * Double(sampleRate)))
        history = Array(repeating: 0, count: channels * 2 * TruePeakInterpolator.tapsPerPhase)
        delay = Array(repeating: 0, count: channels * (lookAhead + 2 * Self.reach + 1))
        boxValues = Array(repeating: 1, count: lookAhead + 1)
        boxSum = Double(lookAhead + 1)
    }

    /// Takes `samples` (whole interleaved frames) and appends to `output` the frames that
    /// are ready: as many as went in, `latency` frames later. NaN reads 0.
    public mutating func process(_ samples: UnsafeBufferPointer<Float>, into output: inout [Float]) {
        let frames = samples.count / channelCount
        output.reserveCapacity(output.count + frames * channelCount)
        for frame in 0..<frames {
            push(samples, at: frame * channelCount, into: &output)
        }
    }

    /// Appends the last `latency` frames, those still waiting; the limiter is empty after it.
    public mutating func finish(into output: inout [Float]) {
        let silence = [Float](repeating: 0, count: channelCount)
        let owed = framesIn
        silence.withUnsafeBufferPointer { frame in
            while framesOut < owed { push(frame, at: 0, into: &output) }
        }
    }

    private mutating func push(_ samples: UnsafeBufferPointer<Float>, at offset: Int, into output: inout [Float]) {
        let taps = TruePeakInterpolator.tapsPerPhase
        let slot = (framesIn % (latency + 1)) * channelCount
        // The frame after the gain, into the delay line and the interpolation's history.
        var framePeak: Float = 0
        for channel in 0..<channelCount {
            let raw = samples[offset + channel]
            let value = raw.isNaN ? 0 : raw * gain
            delay[slot + channel] = value
            history[channel * 2 * taps + historyStart] = value
            history[channel * 2 * taps + historyStart + taps] = value
        }
        historyStart = (historyStart + 1) % taps
        framesIn += 1
        // Between frames t − 8 and t − 7 (t the frame just in): the points the meter reads.
        var between: Float = 0
        var windowPeak: Float = 0
        for channel in 0..<channelCount {
            for index in 0..<taps { windowPeak = max(windowPeak, history[channel * 2 * taps + index].magnitude) }
        }
        if windowPeak * absoluteGain > ceiling {
            for channel in 0..<channelCount {
                let base = channel * 2 * taps + historyStart
                for phase in phases {
                    var sum: Float = 0
                    for index in 0..<taps { sum += phase[index] * history[base + index] }
                    between = max(between, sum.magnitude)
                }
            }
        }
        // Frame t − 8's requirement: its own sample and the points on both sides of it.
        let centre = framesIn - 1 - Self.reach
        if centre >= 0 {
            let centreSlot = (centre % (latency + 1)) * channelCount
            for channel in 0..<channelCount { framePeak = max(framePeak, delay[centreSlot + channel].magnitude) }
            let peak = max(framePeak, max(between, previousBetween))
            require(peak > ceiling ? Double(ceiling) / Double(peak) : 1, into: &output)
        }
        previousBetween = between
    }

    /// Adds the required gain of the next frame; emits the frame whose gain it completes.
    private mutating func require(_ requirement: Double, into output: inout [Float]) {
        let index = requirementsIn
        requirementsIn += 1
        // The least requirement over the last lookAhead + 17 (the window around each frame).
        while minimumQueue.count > minimumQueueStart, minimumQueue[minimumQueue.count - 1].1 >= requirement {
            minimumQueue.removeLast()
        }
        minimumQueue.append((index, requirement))
        let window = lookAhead + 2 * Self.reach + 1
        while minimumQueue[minimumQueueStart].0 <= index - window { minimumQueueStart += 1 }
        if minimumQueueStart > 1024 {
            minimumQueue.removeFirst(minimumQueueStart)
            minimumQueueStart = 0
        }
        let minimum = minimumQueue[minimumQueueStart].1
        let boxSlot = index % (lookAhead + 1)
        boxSum += minimum - boxValues[boxSlot]
        boxValues[boxSlot] = minimum
        // The gain of frame index − lookAhead − 8: the box's mean, then the release.
        let frame = index - lookAhead - Self.reach
        guard frame >= 0 else { return }
        let glided = min(1, boxSum / Double(lookAhead + 1))
        released = min(glided, released + (1 - released) * releaseCoefficient)
        emit(frame: frame, gain: Float(released), into: &output)
    }

    private mutating func emit(frame: Int, gain reduction: Float, into output: inout [Float]) {
        guard frame < framesIn, framesOut == frame else { return }
        let slot = (frame % (latency + 1)) * channelCount
        for channel in 0..<channelCount { output.append(delay[slot + channel] * reduction) }
        if reduction < 1 {
            limitedFrames += 1
            smallestGain = min(smallestGain, reduction)
        }
        framesOut += 1
    }
}
