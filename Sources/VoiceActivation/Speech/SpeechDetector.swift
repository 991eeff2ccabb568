import Glibc
import SoundFiles

/// Says whether the audio it is fed is speech, 10 ms at a time: WebRTC's voice activity
/// detector and `Voicing`, combined by `SpeechEvidence`.
///
/// Takes interleaved blocks in the engine's format at any rate of at least 8 kHz. The channels
/// are mixed to mono; rates WebRTC does not take (44.1 kHz, 22.05 kHz, …) are brought to 16 kHz
/// by averaging (a box filter, enough for a detector), and every rate to 8 kHz the same way for
/// `Voicing`. Storage is allocated in `init`; one thread feeds it (the analysis side, never
/// the capture thread).
public final class SpeechDetector {
    /// The rate WebRTC's detector runs at.
    public let detectorRate: Int
    public let format: StreamFormat
    /// The last complete frame's judgement.
    public private(set) var lastFrame = SpeechEvidence.Frame(voiced: false, periodicity: 0, period: 0)
    /// Whether the last complete frame was speech.
    public private(set) var isSpeech = false
    /// The RMS (dBFS) under which a frame is not heard as speech, nor counts as evidence for
    /// the frames after it: the owner sets it to what a voice must reach to be the one it
    /// listens for.
    public var quietestSpeechDB = -Double.infinity
    /// Whether the frames fed now are the room (nobody is being recorded): while it is set,
    /// `room` learns the room's typical level in the voice band, and once it knows it, a frame
    /// is heard as speech only when its voice band stands `roomMargin` over it. A room of
    /// voices (babble) is speech to any detector, but it does not stand out of itself, nor
    /// lends its glides to a loud thump or tone over it. Off by default: the whole input is
    /// then judged alike.
    public var learnsRoom = false
    /// The room's typical level in the voice band (`Voicing.windowPower`, one slot per frame).
    public private(set) var room = RoomMedian(sampleRate: 100)
    /// How far (in dB) a frame's voice band must stand over the room's: a room of voices has
    /// frames up to 7 dB over its median; a voice near the microphone stands 15 dB and more
    /// over the room it is heard in.
    public static let roomMargin = 10.0

    private let voiceDetector: WebRTCVoiceDetector
    private var voicing = Voicing()
    private var evidence = SpeechEvidence()
    private var detectorFrame: [Int16]
    private var detectorFill = 0
    private let resamplesForDetector: Bool
    private var detectorDecimation = BoxDecimator()
    private var voicingDecimation = BoxDecimator()
    /// The current frame's energy and length, in input samples.
    private var frameEnergy: Float = 0
    private var frameSamples = 0

    /// - Throws: `WebRTCVoiceError.unsupportedSampleRate` for a rate under 8 kHz or over 384 kHz.
    public init(format: StreamFormat) throws(WebRTCVoiceError) {
        let rate = format.sampleRate
        guard (8000...384_000).contains(rate) else { throw .unsupportedSampleRate(rate) }
        self.format = format
        resamplesForDetector = !WebRTCVoiceDetector.supportedSampleRates.contains(rate)
        detectorRate = resamplesForDetector ? 16000 : rate
        voiceDetector = try WebRTCVoiceDetector(sampleRate: detectorRate)
        detectorFrame = Array(repeating: 0, count: detectorRate / 100)
        detectorDecimation = BoxDecimator(from: rate, to: detectorRate)
        voicingDecimation = BoxDecimator(from: rate, to: Voicing.sampleRate)
    }

    /// Feeds `frames` interleaved frames at `buffer` and returns whether the last complete
    /// 10 ms frame was speech.
    @discardableResult
    public func consume(_ buffer: UnsafeRawPointer, frames: Int) -> Bool {
        let channels = format.channels
        switch format.sampleFormat {
        case .int16:
            let samples = buffer.assumingMemoryBound(to: Int16.self)
            for frame in 0..<frames { add(mono(samples, frame, channels) { Float($0) / 32768 }) }
        case .int32:
            let samples = buffer.assumingMemoryBound(to: Int32.self)
            for frame in 0..<frames { add(mono(samples, frame, channels) { Float($0) / 2_147_483_648 }) }
        case .float32:
            let samples = buffer.assumingMemoryBound(to: Float.self)
            for frame in 0..<frames { add(mono(samples, frame, channels) { $0.isFinite ? $0 : 0 }) }
        }
        return isSpeech
    }

    private func mono<Sample>(
        _ samples: UnsafePointer<Sample>, _ frame: Int, _ channels: Int, _ value: (Sample) -> Float
    ) -> Float {
        var sum: Float = 0
        for channel in 0..<channels { sum += value(samples[frame * channels + channel]) }
        return sum / Float(channels)
    }

    private func add(_ sample: Float) {
        frameEnergy += sample * sample
        frameSamples += 1
        if let slow = voicingDecimation.add(sample) { voicing.add(slow) }
        if resamplesForDetector {
            if let converted = detectorDecimation.add(sample) { addToDetector(converted) }
        } else {
            addToDetector(sample)
        }
    }

    private func addToDetector(_ sample: Float) {
        detectorFrame[detectorFill] = Int16(max(-32768, min(32767, (sample * 32768).rounded())))
        detectorFill += 1
        guard detectorFill == detectorFrame.count else { return }
        detectorFill = 0
        // The frame is exactly 10 ms at a supported rate, so WebRTC refuses nothing here; a
        // failure counts as unvoiced rather than stopping the recording.
        let voiced = detectorFrame.withUnsafeBufferPointer { (try? voiceDetector.isVoiced($0)) ?? false }
        let (periodicity, period) = voicing.measure()
        let power = frameSamples > 0 ? Double(frameEnergy) / Double(frameSamples) : 0
        frameEnergy = 0
        frameSamples = 0
        let bandPower = Double(voicing.windowPower)
        if learnsRoom { room.add(power: bandPower, frames: 1) }
        let standsOut = room.levelDB.map { bandPower > 0 && 10 * log10(bandPower) >= $0 + Self.roomMargin } ?? true
        let loudEnough = standsOut
            && (quietestSpeechDB == -.infinity || (power > 0 && 10 * log10(power) >= quietestSpeechDB))
        lastFrame = SpeechEvidence.Frame(voiced: voiced, periodicity: periodicity, period: period, loudEnough: loudEnough)
        isSpeech = evidence.add(lastFrame)
    }
}

/// Averages each run of input samples that falls into one output sample's interval: from
/// `from` Hz down to `to` Hz for any pair of rates (a box filter: a detector's resampling).
struct BoxDecimator: Sendable {
    private let inputRate: Int
    private let outputRate: Int
    private var phase = 0
    private var sum: Float = 0
    private var count = 0

    init(from inputRate: Int = 1, to outputRate: Int = 1) {
        self.inputRate = max(1, inputRate)
        self.outputRate = max(1, min(outputRate, inputRate))
    }

    /// Adds one input sample; returns an output sample when one is complete.
    mutating func add(_ sample: Float) -> Float? {
        sum += sample
        count += 1
        phase += outputRate
        guard phase >= inputRate else { return nil }
        phase -= inputRate
        let average = sum / Float(count)
        sum = 0
        count = 0
        return average
    }
}
