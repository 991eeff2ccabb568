import Metering

/// Skips the long pauses of a memo as it plays (Apple Voice Memos' "Skip Silence"): of a
/// pause longer than `keptPause`, only its first `keptPause` is played; the sound after it
/// comes in with a short fade, so the jump makes no click.
///
/// A 10 ms block is silent when its RMS is within `margin` of the memo's own noise floor,
/// tracked as it plays (the lowest block RMS, rising slowly, 3 dB a second, so a floor that
/// rises is followed), and below −35 dBFS whatever the floor (speech is never silence).
/// Pure: frames in, frames out, in the file's time; the playback thread owns one.
public struct SilenceSkipper: Sendable {
    public let channels: Int
    public let sampleRate: Int
    /// How much of each pause is kept.
    public let keptPause: Int
    private let blockFrames: Int
    private let fadeFrames: Int
    private let margin: Float
    private let ceiling: Float = 0.017_8  // −35 dBFS
    private let minimumFloor: Float = 0.000_03  // −90 dBFS
    /// The noise floor's rise per block (3 dB per second).
    private let rise: Float
    private var floor: Float = 0.001  // −60 dBFS until the memo shows its own
    private var silentRun = 0
    private var droppedSinceSound = false
    /// Frames of pauses not played so far.
    public private(set) var skippedFrames = 0

    /// - Parameters:
    ///   - keptPause: seconds of each pause that are played (0.25).
    ///   - marginDB: how far above the noise floor a block still counts as silence.
    public init(channels: Int, sampleRate: Int, keptPause: Double = 0.25, marginDB: Float = 8) {
        self.channels = max(1, channels)
        self.sampleRate = max(1, sampleRate)
        self.keptPause = Int(keptPause * Double(sampleRate))
        blockFrames = max(1, sampleRate / 100)
        fadeFrames = max(1, sampleRate / 200)
        margin = Self.amplitude(decibels: marginDB)
        rise = Self.amplitude(decibels: 3.0 / 100)
    }

    /// The noise floor now, in dBFS.
    public var noiseFloorDB: Float { Decibels.fromAmplitude(Double(floor)) }

    /// Forgets the pause in progress (after a seek): what follows is judged afresh.
    public mutating func reset() {
        silentRun = 0
        droppedSinceSound = false
    }

    /// Keeps what should be heard of `frames` interleaved frames at `samples`, moved to the
    /// front of the buffer in order; returns how many frames that is.
    public mutating func process(_ samples: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        var kept = 0
        var start = 0
        while start < frames {
            let count = min(blockFrames, frames - start)
            let block = samples + start * channels
            let rms = Self.rms(block, samples: count * channels)
            floor = max(minimumFloor, min(floor * rise, rms))
            let silent = rms < min(ceiling, floor * margin)
            var keep = true
            if silent {
                silentRun += count
                if silentRun > keptPause {
                    keep = false
                    droppedSinceSound = true
                }
            } else {
                if droppedSinceSound { fadeIn(block, frames: count) }
                silentRun = 0
                droppedSinceSound = false
            }
            if keep {
                if kept != start {
                    (samples + kept * channels).update(from: block, count: count * channels)
                }
                kept += count
            } else {
                skippedFrames += count
            }
            start += count
        }
        return kept
    }

    private func fadeIn(_ block: UnsafeMutablePointer<Float>, frames: Int) {
        let length = min(frames, fadeFrames)
        for frame in 0..<length {
            let gain = Float(frame) / Float(length)
            for channel in 0..<channels { block[frame * channels + channel] *= gain }
        }
    }

    private static func rms(_ samples: UnsafeMutablePointer<Float>, samples count: Int) -> Float {
        guard count > 0 else { return 0 }
        var sum: Float = 0
        for index in 0..<count { sum += samples[index] * samples[index] }
        return (sum / Float(count)).squareRoot()
    }

    private static func amplitude(decibels: Float) -> Float {
        Float(Decibels.toAmplitude(Double(decibels)))
    }
}
