import Audio
import Glibc

/// The decisions of voice-activated recording, as a pure function of block levels.
///
/// The caller measures each block of audio (peak and RMS, linear, 1.0 = full scale) and
/// passes it in with the block's first device frame; nothing here reads a clock or
/// touches audio, so tests drive it with synthetic level sequences.
///
/// - A take starts when the smoothed level reaches the start threshold. The smoothed level
///   is each block's RMS (or peak, with `detector == .peak`) through a one-pole low-pass on
///   the linear scale, the classic α = 0.05 per 20 ms; α follows each block's duration
///   (α = 1 − 0.95^(duration / 20 ms)), so any block size behaves the same. On steady sound
///   it reads what the meter's RMS bar shows. Its trigger is the first frame of that block,
///   and the take begins `preRoll` earlier (never before the first frame seen, nor inside the
///   previous take).
/// - A take goes on while the room's envelope (the RMS over the last 200 ms, `RoomLevel`)
///   is at or above the stop threshold; its sound ends with the last 10 ms block whose own
///   RMS reached the stop threshold while the envelope was up. Neither single peaks nor
///   single blocks of room noise keep a take alive (Gaussian noise at −55 dBFS RMS peaks
///   above −46 in every block; brown noise at −52 has 10 ms blocks at −41), and the end is
///   still exact to the block in a quiet room. The smoothed start level decays far too
///   slowly for this (≈ 1.2 s to fall 26 dB): it would add its decay to the hang time.
/// - The smoothing keeps single clicks from starting takes; the minimum take discards the
///   ones that still do (a 0.2 s click train).
/// - A take ends `hangTime` after the end of its last sounding block, exact to the
///   frame. It is kept when the sound lasted at least `minimumTake` (trigger to last sound).
/// - With `maximumTake`, a take that reaches it ends there and the next starts on the
///   same frame.
/// - The noise floor (`RoomLevel.noiseFloorDB`) is tracked all the time, takes included;
///   `isNoiseCloseToThreshold` says when it is within `noiseMargin` of the start threshold,
///   where takes may start on the room alone or not end.
public struct VoiceActivation: Sendable {
    /// What the detector is doing.
    public enum Phase: Sendable, Equatable {
        /// Measuring the noise floor; no take can start.
        case calibrating
        /// Waiting for the level to reach the start threshold.
        case armed
        /// A take is in progress.
        case recording
    }

    /// A take that began.
    public struct TakeStart: Sendable, Equatable {
        /// The first frame of the take (trigger − pre-roll, or less pre-roll when less exists).
        public var startFrame: Int
        /// The first frame of the block whose smoothed level reached the threshold.
        public var triggerFrame: Int
    }

    /// A take that ended.
    public struct TakeEnd: Sendable, Equatable {
        public var startFrame: Int
        public var triggerFrame: Int
        /// One past the take's last frame.
        public var endFrame: Int
        /// One past the last frame of the last block above the stop threshold.
        public var soundEndFrame: Int
        /// Whether the take had enough sound to keep.
        public var keep: Bool
        /// The highest block peak in the take, in dBFS.
        public var peakDB: Float
    }

    /// What one block changed. A split ends a take and starts the next in the same block.
    public struct Step: Sendable, Equatable {
        public var ended: TakeEnd?
        public var started: TakeStart?
        /// The start threshold set by a calibration that finished in this block.
        public var calibratedThresholdDB: Double?
    }

    private struct Take {
        var startFrame: Int
        var triggerFrame: Int
        var soundEndFrame: Int
        var peak: Float
    }

    public let settings: VoiceActivationSettings
    public let sampleRate: Int
    /// The start threshold in effect (the calibrated one once calibration has finished).
    public private(set) var startThresholdDB: Double
    /// The stop threshold in effect.
    public private(set) var stopThresholdDB: Double
    /// The smoothed detector level, linear (1.0 = full scale).
    public private(set) var smoothedLevel: Float = 0
    /// The room's envelope and noise floor.
    public private(set) var room: RoomLevel
    /// How close (in dB) the noise floor may come to the start threshold before it is a
    /// problem: takes end reliably with the room at least this far under the threshold.
    public static let noiseMargin = 10.0
    public private(set) var phase: Phase
    /// One past the last frame consumed.
    public private(set) var position: Int

    private var startLevel: Float
    private var stopLevel: Float
    private var earliestStart: Int
    private var take: Take?
    /// One past the last block whose RMS reached the stop threshold in the current take.
    private var lastLoudFrame = 0
    private var calibrationPower: Double = 0
    private var calibrationFrames = 0
    private let hangFrames: Int
    private let minimumFrames: Int
    private let preRollFrames: Int
    private let maximumFrames: Int?
    private let calibrationLength: Int?

    /// - Parameters:
    ///   - settings: validated settings (see `VoiceActivationSettings.validate()`).
    ///   - sampleRate: frames per second.
    ///   - firstFrame: the first frame that will be consumed (the earliest a take may start).
    public init(settings: VoiceActivationSettings, sampleRate: Int, firstFrame: Int = 0) {
        self.settings = settings
        self.sampleRate = sampleRate
        let rate = Double(sampleRate)
        func frames(_ seconds: Double) -> Int { Int((seconds * rate).rounded()) }
        hangFrames = max(1, frames(settings.hangTime))
        minimumFrames = frames(settings.minimumTake)
        preRollFrames = frames(settings.preRoll)
        maximumFrames = settings.maximumTake.map { max(1, frames($0)) }
        calibrationLength = settings.calibrationTime.map { max(1, frames($0)) }
        startThresholdDB = settings.startThresholdDB
        stopThresholdDB = settings.effectiveStopThresholdDB(forStart: settings.startThresholdDB)
        startLevel = Self.amplitude(startThresholdDB)
        stopLevel = Self.amplitude(stopThresholdDB)
        phase = settings.calibrationTime == nil ? .armed : .calibrating
        position = firstFrame
        earliestStart = firstFrame
        room = RoomLevel(sampleRate: sampleRate)
    }

    /// The smoothed detector level in dBFS (−160 for silence).
    public var smoothedLevelDB: Float { Self.decibels(smoothedLevel) }

    /// The noise floor in dBFS; `nil` until enough has been heard (250 ms).
    public var noiseFloorDB: Double? { room.noiseFloorDB }

    /// Whether the noise floor is within `noiseMargin` of the start threshold.
    public var isNoiseCloseToThreshold: Bool { VoiceActivationStatus(self).isNoiseCloseToThreshold }

    /// Seconds of silence so far in the current take (0 when none is in progress).
    public var silence: Double {
        guard let take else { return 0 }
        return Double(position - take.soundEndFrame) / Double(sampleRate)
    }

    /// The frame the current take began on, if one is in progress.
    public var currentTakeStart: Int? { take?.startFrame }

    /// Feeds one block: `frames` frames starting at device frame `firstFrame`, with its
    /// peak and RMS (linear, over all channels).
    public mutating func consume(peak: Float, rms: Float, frames: Int, firstFrame: Int) -> Step {
        var step = Step()
        guard frames > 0 else { return step }
        let blockEnd = firstFrame + frames
        position = blockEnd
        let level = settings.detector == .peak ? peak : rms
        room.add(power: Double(rms) * Double(rms), frames: frames)
        let sounding = room.envelope >= stopLevel
        let alpha = 1 - Float(pow(0.95, Double(frames) / (0.02 * Double(sampleRate))))
        smoothedLevel += alpha * (level - smoothedLevel)

        switch phase {
        case .calibrating:
            calibrationPower += Double(rms) * Double(rms) * Double(frames)
            calibrationFrames += frames
            if calibrationFrames >= calibrationLength ?? 0 {
                let floor = Double(Self.decibels(Float((calibrationPower / Double(calibrationFrames)).squareRoot())))
                let start = min(0, max(-160, floor + settings.calibrationMargin))
                startThresholdDB = start
                stopThresholdDB = settings.effectiveStopThresholdDB(forStart: start)
                startLevel = Self.amplitude(startThresholdDB)
                stopLevel = Self.amplitude(stopThresholdDB)
                step.calibratedThresholdDB = start
                phase = .armed
                earliestStart = blockEnd
            }
        case .armed:
            if smoothedLevel >= startLevel, smoothedLevel > 0 {
                let start = max(firstFrame - preRollFrames, earliestStart)
                take = Take(startFrame: start, triggerFrame: firstFrame, soundEndFrame: blockEnd, peak: peak)
                lastLoudFrame = blockEnd
                phase = .recording
                step.started = TakeStart(startFrame: start, triggerFrame: firstFrame)
            }
        case .recording:
            guard var current = take else { break }
            current.peak = max(current.peak, peak)
            if rms >= stopLevel { lastLoudFrame = blockEnd }
            if sounding { current.soundEndFrame = max(current.soundEndFrame, lastLoudFrame) }
            take = current
            if let maximumFrames, blockEnd - current.startFrame >= maximumFrames {
                let split = current.startFrame + maximumFrames
                step.ended = end(current, at: split)
                if sounding {
                    take = Take(startFrame: split, triggerFrame: split, soundEndFrame: blockEnd, peak: peak)
                    lastLoudFrame = blockEnd
                    phase = .recording
                    step.started = TakeStart(startFrame: split, triggerFrame: split)
                }
            } else if blockEnd - current.soundEndFrame >= hangFrames {
                step.ended = end(current, at: current.soundEndFrame + hangFrames)
            }
        }
        return step
    }

    /// Passes over a block the owner wants ignored (the talking-app replay playing into the
    /// room): while armed, nothing can start from it, its frames are not pre-roll for a later
    /// take, the level starts again from silence and the room's noise floor does not see it. A
    /// take in progress hears it as silence (and ends after its hang time).
    public mutating func ignore(frames: Int, firstFrame: Int) -> Step {
        guard phase == .armed else { return consume(peak: 0, rms: 0, frames: frames, firstFrame: firstFrame) }
        guard frames > 0 else { return Step() }
        position = firstFrame + frames
        smoothedLevel = 0
        earliestStart = position
        return Step()
    }

    /// The input ended at `frame`: ends a take in progress there (or at its hang time,
    /// when that comes first).
    public mutating func finish(atFrame frame: Int) -> TakeEnd? {
        guard let current = take else { return nil }
        return end(current, at: min(frame, current.soundEndFrame + hangFrames))
    }

    private mutating func end(_ current: Take, at endFrame: Int) -> TakeEnd {
        take = nil
        phase = .armed
        earliestStart = endFrame
        let soundEnd = min(current.soundEndFrame, endFrame)
        return TakeEnd(
            startFrame: current.startFrame, triggerFrame: current.triggerFrame, endFrame: endFrame,
            soundEndFrame: soundEnd, keep: soundEnd - current.triggerFrame >= minimumFrames,
            peakDB: Self.decibels(current.peak))
    }

    static func amplitude(_ decibels: Double) -> Float {
        decibels <= -160 ? 0 : Float(pow(10, decibels / 20))
    }

    static func decibels(_ amplitude: Float) -> Float {
        amplitude > 0 ? max(-160, 20 * log10f(amplitude)) : -160
    }
}
