/// How `SpeechEnhancer` suppresses noise.
public struct EnhancementSettings: Sendable, Equatable {
    /// The most the denoiser takes off the noise, in dB (negative). SpeexDSP's own default,
    /// −15 dB, takes white noise alone only 14.0 dB down (16 kHz, 10 ms frames); −20 dB takes
    /// the floor in speech's pauses down 17–25 dB. More (−40 dB: 27–30 dB down) and PocketSphinx
    /// hears the speech worse (docs/PERFORMANCE.md).
    public var noiseSuppressionDB: Int
    /// Frame length, 10 or 20 ms. 10 ms: the floor comes back down sooner after speech (at
    /// −40 dB, a 150 ms pause between voiced bursts: 14.3 dB down with 20 ms frames, 18 dB with
    /// 10; on read speech at −20 dB, 17.0–24.2 dB against 15.5–25.5, docs/PERFORMANCE.md).
    public var frameMilliseconds: Int
    /// SpeexDSP's automatic gain control; off by default (it changes the speech's loudness).
    public var automaticGain: Bool
    /// The cutoff of the 12 dB/octave high-pass ahead of the denoiser, in Hz, or `nil` for
    /// none: SpeexDSP leaves the rumble under 100 Hz nearly as it was (see `LowCutFilter`).
    public var lowCutHz: Double?

    public init(noiseSuppressionDB: Int = -20, frameMilliseconds: Int = 10, automaticGain: Bool = false, lowCutHz: Double? = 80) {
        self.noiseSuppressionDB = noiseSuppressionDB
        self.frameMilliseconds = frameMilliseconds
        self.automaticGain = automaticGain
        self.lowCutHz = lowCutHz
    }

    public static let standard = EnhancementSettings()
    /// The suppression levels accepted, in dB.
    public static let noiseSuppressionRange = -60 ... -1
    /// The frame lengths accepted, in milliseconds.
    public static let frameLengths = [10, 20]
    /// The low cuts accepted, in Hz.
    public static let lowCutRange = 20.0...300.0
}

/// Why an enhancer cannot be made.
public enum SpeechEnhancementError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedSampleRate(Int)
    case unsupportedChannelCount(Int)
    case invalidNoiseSuppression(Int)
    case invalidFrameLength(Int)
    case invalidLowCut(Double)
    /// SpeexDSP refused to make its state (out of memory) or a setting.
    case speexRefused(String)

    public var description: String {
        switch self {
        case .unsupportedSampleRate(let rate):
            "enhance works at \(SpeechEnhancer.supportedSampleRates.lowerBound / 1000) to \(SpeechEnhancer.supportedSampleRates.upperBound / 1000) kHz; this audio is at \(rate) Hz"
        case .unsupportedChannelCount(let channels):
            "enhance works on 1 to \(SpeechEnhancer.maximumChannels) channels; this audio has \(channels)"
        case .invalidNoiseSuppression(let dB):
            "a noise suppression of \(dB) dB is outside \(EnhancementSettings.noiseSuppressionRange.lowerBound) to \(EnhancementSettings.noiseSuppressionRange.upperBound) dB"
        case .invalidFrameLength(let milliseconds):
            "a frame of \(milliseconds) ms is not one of 10 or 20 ms"
        case .invalidLowCut(let hertz):
            "a low cut at \(hertz) Hz is outside \(Int(EnhancementSettings.lowCutRange.lowerBound)) to \(Int(EnhancementSettings.lowCutRange.upperBound)) Hz"
        case .speexRefused(let what):
            "SpeexDSP refused \(what)"
        }
    }
}

/// Noise suppression for speech, through SpeexDSP's preprocessor (its spectral denoiser; its
/// AGC when asked): one preprocessor state per channel, on frames of 10 or 20 ms at any rate from
/// 8 to 384 kHz. Interleaved float samples of any length go in; the enhancer gathers them into whole
/// frames, and `finish` pushes out the tail, so exactly as many frames come out as went in,
/// in step with the input (SpeexDSP's one-frame delay is taken off). Samples pass through
/// SpeexDSP as 16-bit integers, so the output's resolution is 16 bits, clipped at ±1. Ahead of the
/// denoiser, an 80 Hz high-pass (`EnhancementSettings.lowCutHz`) takes off the rumble it leaves.
///
/// Not thread-safe: one thread owns it.
public final class SpeechEnhancer {
    /// Any rate a memo may be recorded at (`RecordingSettings.sampleRateRange`). SpeexDSP's
    /// preprocessor is not tied to a rate: its bands follow the rate it is told and its FFT
    /// takes any frame length. Measured on read speech in white, pink and fan-like noise at 8,
    /// 11.025, 16, 22.05, 24, 44.1, 48, 96, 192, 352.8 and 384 kHz: the floor in the pauses
    /// 16.1–25.0 dB down, the loudness within 0.74 LU (docs/PERFORMANCE.md). It once refused
    /// every rate but 16, 32 and 48 kHz, so a 44.1 kHz memo could not be enhanced.
    public static let supportedSampleRates = 8_000...384_000
    public static let maximumChannels = 32

    public let sampleRate: Int
    public let channels: Int
    public let settings: EnhancementSettings
    /// Samples per channel in one SpeexDSP frame.
    public let frameSize: Int

    private let preprocessors: [SpeexPreprocessor]
    private var lowCut: LowCutFilter?
    /// Interleaved frames waiting for a whole frame.
    private var pending: [Float] = []
    private var pendingFrames = 0
    private var channelFrame: [Int16]
    /// Frames that went in, and frames that came out of SpeexDSP (the first `frameSize` of
    /// them, its delay, are dropped).
    private var framesIn: Int64 = 0
    private var framesProcessed: Int64 = 0
    private var framesOut: Int64 = 0
    private var finished = false

    public init(sampleRate: Int, channels: Int, settings: EnhancementSettings = .standard) throws(SpeechEnhancementError) {
        guard Self.supportedSampleRates.contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
        guard (1...Self.maximumChannels).contains(channels) else { throw .unsupportedChannelCount(channels) }
        guard EnhancementSettings.noiseSuppressionRange.contains(settings.noiseSuppressionDB) else {
            throw .invalidNoiseSuppression(settings.noiseSuppressionDB)
        }
        guard EnhancementSettings.frameLengths.contains(settings.frameMilliseconds) else {
            throw .invalidFrameLength(settings.frameMilliseconds)
        }
        if let hertz = settings.lowCutHz, !EnhancementSettings.lowCutRange.contains(hertz) { throw .invalidLowCut(hertz) }
        let frameSize = sampleRate * settings.frameMilliseconds / 1000
        var preprocessors: [SpeexPreprocessor] = []
        for _ in 0..<channels {
            guard let preprocessor = SpeexPreprocessor(frameSize: frameSize, sampleRate: sampleRate) else {
                throw .speexRefused("a preprocessor state for \(frameSize)-sample frames at \(sampleRate) Hz")
            }
            guard preprocessor.configure(noiseSuppressionDB: settings.noiseSuppressionDB, automaticGain: settings.automaticGain) else {
                throw .speexRefused("the denoiser's settings")
            }
            preprocessors.append(preprocessor)
        }
        self.sampleRate = sampleRate
        self.channels = channels
        self.settings = settings
        self.frameSize = frameSize
        self.preprocessors = preprocessors
        lowCut = settings.lowCutHz.map { LowCutFilter(cutoff: $0, sampleRate: sampleRate, channels: channels) }
        channelFrame = [Int16](repeating: 0, count: frameSize)
        pending.reserveCapacity(frameSize * channels)
    }

    /// Frames the output lags the input by between calls: at most a frame waiting to be whole
    /// plus SpeexDSP's one-frame delay.
    public var bufferedFrames: Int { Int(framesIn - framesOut) }

    /// Enhances `input` (interleaved, `channels` per frame, a whole number of frames) and
    /// appends to `output` the enhanced frames that are ready (whole SpeexDSP frames).
    public func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) {
        precondition(!finished, "process after finish")
        precondition(input.count % channels == 0, "interleaved input holds whole frames")
        let frames = input.count / channels
        framesIn += Int64(frames)
        var index = 0
        while index < frames {
            let take = min(frameSize - pendingFrames, frames - index)
            if var filter = lowCut {
                lowCut = nil  // one owner of its state while it runs (no copy of it)
                for sampleIndex in (index * channels)..<((index + take) * channels) {
                    let sample = Double(input[sampleIndex])
                    pending.append(Float(filter.filter(sample.isFinite ? sample : 0, channel: sampleIndex % channels)))
                }
                lowCut = filter
            } else {
                pending.append(contentsOf: input[(index * channels)..<((index + take) * channels)])
            }
            pendingFrames += take
            index += take
            if pendingFrames == frameSize { runPending(into: &output) }
        }
    }

    /// `process` over an array.
    public func process(_ input: [Float], into output: inout [Float]) {
        input.withUnsafeBufferPointer { process($0, into: &output) }
    }

    /// Pushes out the rest: the frames still inside (padded with silence to whole SpeexDSP
    /// frames, the padding dropped), so the output holds exactly the frames that went in.
    public func finish(into output: inout [Float]) {
        guard !finished else { return }
        finished = true
        while framesOut < framesIn {
            let missing = frameSize - pendingFrames
            pending.append(contentsOf: repeatElement(0, count: missing * channels))
            pendingFrames = frameSize
            runPending(into: &output)
        }
    }

    /// Runs the whole frame in `pending` through every channel's preprocessor and appends
    /// what is due out of it (not SpeexDSP's delay, not the padding past the input's end).
    private func runPending(into output: inout [Float]) {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: frameSize * channels))
        for channel in 0..<channels {
            for frame in 0..<frameSize {
                channelFrame[frame] = Self.int16(pending[frame * channels + channel])
            }
            channelFrame.withUnsafeMutableBufferPointer { preprocessors[channel].run($0) }
            for frame in 0..<frameSize {
                output[start + frame * channels + channel] = Float(channelFrame[frame]) / 32_768
            }
        }
        pending.removeAll(keepingCapacity: true)
        pendingFrames = 0
        let before = framesProcessed
        framesProcessed += Int64(frameSize)
        // Output frame k of SpeexDSP is input frame k − frameSize.
        let dueFrom = max(before, Int64(frameSize))
        let dueTo = min(framesProcessed, framesIn + Int64(frameSize))
        let keepFrom = Int(dueFrom - before)
        let keepTo = max(keepFrom, Int(dueTo - before))
        if keepTo < frameSize { output.removeSubrange((start + keepTo * channels)...) }
        if keepFrom > 0 { output.removeSubrange(start..<(start + keepFrom * channels)) }
        framesOut += Int64(keepTo - keepFrom)
    }

    /// A float sample as SpeexDSP's 16-bit integer, rounded, clipped at full scale.
    static func int16(_ sample: Float) -> Int16 {
        guard sample.isFinite else { return 0 }
        let scaled = (sample * 32_768).rounded()
        return Int16(max(-32_768, min(32_767, scaled)))
    }
}
