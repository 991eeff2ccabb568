import CSoundTouch

/// Why a tempo or pitch setting is refused.
public enum TimeStretchError: Error, Sendable, Equatable, CustomStringConvertible {
    case tempoOutOfRange(Double)
    case pitchOutOfRange(Double)
    case unsupportedFormat(channels: Int, sampleRate: Int)

    public var description: String {
        switch self {
        case .tempoOutOfRange(let tempo): "speed \(tempo)× is outside \(TimeStretcher.tempoRange.lowerBound)× to \(TimeStretcher.tempoRange.upperBound)×"
        case .pitchOutOfRange(let pitch): "pitch \(pitch) semitones is outside −12 to +12"
        case .unsupportedFormat(let channels, let rate): "SoundTouch cannot process \(channels) channel(s) at \(rate) Hz"
        }
    }
}

/// Changes the speed of interleaved float audio with its pitch kept, and its pitch with its
/// speed kept, as it streams: SoundTouch's WSOLA time stretch and resampling, through its C
/// interface. Not thread-safe: the playback thread owns it.
///
/// Audio goes in with `put` and comes out with `receive`; SoundTouch holds some of it inside
/// (`bufferedInputFrames`), which the play head accounts for.
public final class TimeStretcher {
    /// The speeds playback offers.
    public static let tempoRange = 0.5...3.0
    /// The pitch shifts playback offers, in semitones.
    public static let pitchRange = -12.0...12.0

    public let channels: Int
    public let sampleRate: Int
    private let handle: UnsafeMutableRawPointer
    public private(set) var tempo = 1.0
    public private(set) var pitchSemitones = 0.0

    public init(channels: Int, sampleRate: Int) throws(TimeStretchError) {
        // SoundTouch handles 1 to 16 channels; rates are checked by its setter.
        guard (1...16).contains(channels), (8_000...384_000).contains(sampleRate),
            let handle = soundtouch_createInstance()
        else { throw .unsupportedFormat(channels: channels, sampleRate: sampleRate) }
        self.handle = handle
        self.channels = channels
        self.sampleRate = sampleRate
        guard soundtouch_setChannels(handle, UInt32(channels)) != 0, soundtouch_setSampleRate(handle, UInt32(sampleRate)) != 0 else {
            soundtouch_destroyInstance(handle)
            throw .unsupportedFormat(channels: channels, sampleRate: sampleRate)
        }
    }

    deinit {
        soundtouch_destroyInstance(handle)
    }

    /// Whether the audio passes unchanged (speed 1×, no pitch shift): then it need not go
    /// through SoundTouch at all.
    public var isIdentity: Bool { tempo == 1 && pitchSemitones == 0 }

    /// Sets the speed: 2 plays twice as fast at the same pitch.
    public func setTempo(_ tempo: Double) throws(TimeStretchError) {
        guard tempo.isFinite, Self.tempoRange.contains(tempo) else { throw .tempoOutOfRange(tempo) }
        self.tempo = tempo
        soundtouch_setTempo(handle, Float(tempo))
    }

    /// Sets the pitch shift in semitones (+12 is an octave up) at the same speed.
    public func setPitch(semitones: Double) throws(TimeStretchError) {
        guard semitones.isFinite, Self.pitchRange.contains(semitones) else { throw .pitchOutOfRange(semitones) }
        pitchSemitones = semitones
        soundtouch_setPitchSemiTones(handle, Float(semitones))
    }

    /// Hands SoundTouch `frames` interleaved frames.
    public func put(_ samples: UnsafePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        _ = soundtouch_putSamples(handle, samples, UInt32(frames))
    }

    /// Takes up to `maxFrames` processed frames into `output`; returns how many.
    public func receive(into output: UnsafeMutablePointer<Float>, maxFrames: Int) -> Int {
        guard maxFrames > 0 else { return 0 }
        return Int(soundtouch_receiveSamples(handle, output, UInt32(maxFrames)))
    }

    /// Makes the last frames put in come out (at the end of the file).
    public func flush() {
        _ = soundtouch_flush(handle)
    }

    /// Forgets everything inside (after a seek).
    public func clear() {
        soundtouch_clear(handle)
    }

    /// How much of the input put in has not come out yet, in input frames: what waits to be
    /// processed, plus what is processed and waiting, at the input's pace.
    public var bufferedInputFrames: Int {
        let unprocessed = Int(soundtouch_numUnprocessedSamples(handle))
        let ready = Double(soundtouch_numSamples(handle))
        return unprocessed + Int((ready * tempo).rounded())
    }

    /// SoundTouch's version, e.g. `2.3.2`.
    public static var version: String {
        soundtouch_getVersionString().map { String(cString: $0) } ?? "?"
    }
}
