import SpeechEnhancement

/// How a memo is played: speed, pitch, volume and skip silence (Apple Voice Memos' playback
/// settings, plus the volume of the stream player VoiceMemo descends from).
public struct PlaybackAdjustments: Sendable, Equatable {
    /// The volumes playback offers (1 = as recorded; above 1 can clip, which is counted).
    public static let volumeRange = 0.0...1.5

    /// 0.5–3: how fast, with the pitch kept.
    public var speed: Double
    /// −12…+12 semitones, with the speed kept.
    public var pitchSemitones: Double
    /// 0–1.5.
    public var volume: Double
    /// Skips pauses longer than a quarter second (`SilenceSkipper`).
    public var skipsSilence: Bool
    /// Noise suppression on the way (`SpeechEnhancer`, before skipping silence), as `enhance`.
    public var enhances: Bool

    public init(speed: Double = 1, pitchSemitones: Double = 0, volume: Double = 1, skipsSilence: Bool = false, enhances: Bool = false) {
        self.enhances = enhances
        self.speed = speed
        self.pitchSemitones = pitchSemitones
        self.volume = volume
        self.skipsSilence = skipsSilence
    }

    /// Whether the audio goes to the device as decoded.
    public var isIdentity: Bool { speed == 1 && pitchSemitones == 0 && volume == 1 && !skipsSilence && !enhances }

    /// Why audio at `sampleRate` with `channels` cannot be enhanced, or `nil` when it can.
    public static func enhancementProblem(sampleRate: Int, channels: Int) -> String? {
        do {
            _ = try SpeechEnhancer(sampleRate: sampleRate, channels: channels)
            return nil
        } catch {
            return error.description
        }
    }

    /// Whether SoundTouch is needed.
    var stretches: Bool { speed != 1 || pitchSemitones != 0 }

    /// Why these cannot be used, or `nil`.
    public var problem: String? {
        if !speed.isFinite || !TimeStretcher.tempoRange.contains(speed) { return "speed \(speed)× is outside 0.5× to 3×" }
        if !pitchSemitones.isFinite || !TimeStretcher.pitchRange.contains(pitchSemitones) {
            return "pitch \(pitchSemitones) semitones is outside −12 to +12"
        }
        if !volume.isFinite || !Self.volumeRange.contains(volume) { return "volume \(Int((volume * 100).rounded())) % is outside 0 % to 150 %" }
        return nil
    }
}

/// The playback thread's processing between the file and the device, for an adjustable
/// player: noise suppression, skip silence, then SoundTouch (speed, pitch), then the volume; everything in
/// float. Buffers are allocated when it is made, before the loop; SoundTouch grows its own
/// once, at its first use.
final class PlaybackProcessing {
    let channels: Int
    private let stretcher: TimeStretcher
    private var skipper: SilenceSkipper
    private let sampleRate: Int
    /// While enhancing: the enhancer (a new one after a seek) and its output for one chunk.
    private var enhancer: SpeechEnhancer?
    private var enhanced: [Float] = []
    /// Processed frames ready for the device.
    let output: UnsafeMutablePointer<Float>
    let outputCapacity: Int
    private(set) var isStretching = false
    private var applied = PlaybackAdjustments()
    /// Samples that the volume pushed past full scale (clamped).
    private(set) var clippedSamples = 0

    init(channels: Int, sampleRate: Int, chunkFrames: Int) throws(TimeStretchError) {
        self.channels = channels
        stretcher = try TimeStretcher(channels: channels, sampleRate: sampleRate)
        skipper = SilenceSkipper(channels: channels, sampleRate: sampleRate)
        self.sampleRate = sampleRate
        enhanced.reserveCapacity((chunkFrames + 2_048) * channels)
        // At 0.5× a chunk comes out twice as long; SoundTouch may release a little more.
        outputCapacity = chunkFrames * 4 + 8192
        output = .allocate(capacity: outputCapacity * channels)
    }

    deinit {
        output.deallocate()
    }

    var skippedFrames: Int { skipper.skippedFrames }

    /// Input frames inside SoundTouch, not heard yet.
    var bufferedInputFrames: Int { (isStretching ? stretcher.bufferedInputFrames : 0) + (enhancer?.bufferedFrames ?? 0) }

    /// The speed the device's queue plays at, in file frames per device frame.
    var speed: Double { isStretching ? applied.speed : 1 }

    /// Takes `adjustments` for what comes next. Returns frames to write first: what SoundTouch
    /// still held when stretching stopped (in `output`).
    func apply(_ adjustments: PlaybackAdjustments) -> Int {
        guard adjustments != applied else { return 0 }
        if adjustments.enhances != (enhancer != nil) {
            // What the enhancer held (at most 20 ms) is not played when it is turned off.
            enhancer = adjustments.enhances ? try? SpeechEnhancer(sampleRate: sampleRate, channels: channels) : nil
        }
        var pending = 0
        if adjustments.stretches {
            try? stretcher.setTempo(adjustments.speed)
            try? stretcher.setPitch(semitones: adjustments.pitchSemitones)
            isStretching = true
        } else if isStretching {
            stretcher.flush()
            pending = stretcher.receive(into: output, maxFrames: outputCapacity)
            stretcher.clear()
            isStretching = false
            applyVolume(frames: pending, volume: adjustments.volume)
        }
        applied = adjustments
        return pending
    }

    /// Forgets what is inside (a seek or a pause).
    func reset() {
        stretcher.clear()
        skipper.reset()
        if enhancer != nil { enhancer = try? SpeechEnhancer(sampleRate: sampleRate, channels: channels) }
    }

    /// Runs `frames` decoded frames at `input` through; returns how many frames are ready in
    /// `output`. At the end of the file (`flush`), what SoundTouch holds comes out too.
    func process(_ input: UnsafeMutablePointer<Float>, frames: Int, flush: Bool = false) -> Int {
        guard let enhancer else { return processAfterEnhancer(input, frames: frames, flush: flush) }
        enhanced.removeAll(keepingCapacity: true)
        enhancer.process(UnsafeBufferPointer(start: input, count: frames * channels), into: &enhanced)
        if flush { enhancer.finish(into: &enhanced) }
        let count = enhanced.count / channels
        return enhanced.withUnsafeMutableBufferPointer { samples in
            guard let base = samples.baseAddress else { return processAfterEnhancer(input, frames: 0, flush: flush) }
            return processAfterEnhancer(base, frames: count, flush: flush)
        }
    }

    /// The rest after the enhancer (or without one): skip silence, SoundTouch, the volume.
    private func processAfterEnhancer(_ input: UnsafeMutablePointer<Float>, frames: Int, flush: Bool) -> Int {
        var kept = frames
        if applied.skipsSilence, frames > 0 { kept = skipper.process(input, frames: frames) }
        var ready: Int
        if isStretching {
            stretcher.put(input, frames: kept)
            if flush { stretcher.flush() }
            ready = stretcher.receive(into: output, maxFrames: outputCapacity)
        } else {
            ready = min(kept, outputCapacity)
            output.update(from: input, count: ready * channels)
        }
        applyVolume(frames: ready, volume: applied.volume)
        return ready
    }

    private func applyVolume(frames: Int, volume: Double) {
        let samples = frames * channels
        guard volume != 1 else { return }
        let gain = Float(volume)
        var clipped = 0
        for index in 0..<samples {
            var value = output[index] * gain
            if value > 1 { value = 1; clipped += 1 } else if value < -1 { value = -1; clipped += 1 }
            output[index] = value
        }
        clippedSamples += clipped
    }
}
