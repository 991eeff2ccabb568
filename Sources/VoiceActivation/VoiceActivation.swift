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
/// - With a speech judgement per block (`consume(…, speech:)`, from `SpeechDetector`), a take
///   starts only when the level is at the threshold and speech was heard in the last
///   `speechLookBack` seconds (speech in a block whose RMS reaches the stop threshold: a voice
///   far under the level is not what the level is about); its trigger is the block where the level reached the threshold
///   (speech is recognised 50–150 ms into a word), at most `speechLookBack` back. Its sound
///   ends with the last speech block, or with the last loud block (as above) when that comes
///   at most `trailingSound` after it (the unvoiced end of a word: "tickets", "yes"). So a room
///   at the threshold's level neither starts takes nor keeps one going, and a take is kept when
///   its sound reaches `minimumTake` from the take's first frame (pre-roll included): a
///   one-word answer of 0.3 s is kept.
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
        /// One past the last block judged speech (speech judgements only).
        var speechEndFrame: Int
    }

    /// How recently speech must have been heard for the level to start a take, in seconds.
    public static let speechLookBack = 0.3
    /// How long after the last speech a loud block still counts as the take's sound, in seconds.
    public static let trailingSound = 0.2

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
    /// The room's typical level while no take is in progress (kept as it was through a take).
    public private(set) var roomWhileArmed: RoomMedian
    /// How far (in dB) a block after the last speech must stand over the room's loudest
    /// blocks (the 99th percentile of its 10 ms levels while armed: 1 dB over the median for
    /// white noise, 6 dB for babble, 10 dB for brown noise) to carry on the end of a word.
    public static let tailMargin = 1.5
    /// The 10 ms slots of the room that wait before they count (0.5 s): those just before a
    /// take are the start of its speech (heard before the level reached the threshold), not the
    /// room.
    static let roomDelaySlots = 50
    /// The longest gap in the end of a word, in seconds.
    public static let tailGap = 0.05
    /// How long after the last speech the end of a word that stands out of the room may last.
    public static let tailLength = 0.4
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
    /// The first frame of the block where the smoothed level last reached the start threshold
    /// while armed (`nil` while it is under it): with speech judgements the take's trigger,
    /// as speech is heard some 50–150 ms after the level rises.
    private var levelCrossFrame: Int?
    /// One past the last block judged speech; `nil` before any.
    private var lastSpeechFrame: Int?
    /// Whether the last block fed was judged speech (`nil`: fed without a judgement).
    public private(set) var hearsSpeech: Bool?
    /// Whether blocks have come with speech judgements (the rules above switch to speech).
    private var judgesSpeech = false
    private let speechLookBackFrames: Int
    private let trailingFrames: Int
    private let tailGapFrames: Int
    private let tailFrames: Int
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
        speechLookBackFrames = frames(Self.speechLookBack)
        trailingFrames = frames(Self.trailingSound)
        startThresholdDB = settings.startThresholdDB
        stopThresholdDB = settings.effectiveStopThresholdDB(forStart: settings.startThresholdDB)
        startLevel = Self.amplitude(startThresholdDB)
        stopLevel = Self.amplitude(stopThresholdDB)
        phase = settings.calibrationTime == nil ? .armed : .calibrating
        position = firstFrame
        earliestStart = firstFrame
        room = RoomLevel(sampleRate: sampleRate)
        roomWhileArmed = RoomMedian(sampleRate: sampleRate, delaySlots: Self.roomDelaySlots)
        tailGapFrames = frames(Self.tailGap)
        tailFrames = frames(Self.tailLength)
    }

    /// The RMS a block after the last speech needs to carry on the end of a word: the stop
    /// threshold, and `tailMargin` over the room's loudest blocks while armed.
    private var tailLevel: Float {
        max(stopLevel, roomWhileArmed.levelDB(atFraction: 0.99).map { Self.amplitude($0 + Self.tailMargin) } ?? 0)
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

    /// How long ago speech counts as recent for `heardSpeechRecently`, in seconds.
    public static let recentSpeech = 10.0

    /// Whether a block judged speech came in the last `recentSpeech` seconds (`false` without
    /// speech judgements).
    public var heardSpeechRecently: Bool {
        guard let lastSpeechFrame else { return false }
        return Double(position - lastSpeechFrame) <= Self.recentSpeech * Double(sampleRate)
    }

    /// The frame the current take began on, if one is in progress.
    public var currentTakeStart: Int? { take?.startFrame }

    /// Feeds one block: `frames` frames starting at device frame `firstFrame`, with its
    /// peak and RMS (linear, over all channels), and whether it is speech (`nil`: no
    /// judgement, the level alone decides).
    public mutating func consume(peak: Float, rms: Float, frames: Int, firstFrame: Int, speech: Bool? = nil) -> Step {
        var step = Step()
        guard frames > 0 else { return step }
        let blockEnd = firstFrame + frames
        position = blockEnd
        // Speech counts when its block is loud enough to be what the level is about: a voice far
        // off (babble at −70 dBFS under a loud noise) is not what starts or keeps a take.
        let speech = speech.map { $0 && rms >= stopLevel }
        hearsSpeech = speech
        if speech != nil { judgesSpeech = true }
        if speech == true { lastSpeechFrame = blockEnd }
        let speechHeard = speech == nil || (lastSpeechFrame.map { blockEnd - $0 <= speechLookBackFrames } ?? false)
        let level = settings.detector == .peak ? peak : rms
        room.add(power: Double(rms) * Double(rms), frames: frames)
        if phase != .recording { roomWhileArmed.add(power: Double(rms) * Double(rms), frames: frames) }
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
            let aboveThreshold = smoothedLevel >= startLevel && smoothedLevel > 0
            if aboveThreshold, levelCrossFrame == nil { levelCrossFrame = firstFrame }
            if !aboveThreshold { levelCrossFrame = nil }
            if aboveThreshold, speechHeard {
                let trigger = max(levelCrossFrame ?? firstFrame, firstFrame - speechLookBackFrames, earliestStart)
                let start = max(trigger - preRollFrames, earliestStart)
                take = Take(
                    startFrame: start, triggerFrame: trigger, soundEndFrame: blockEnd, peak: peak,
                    speechEndFrame: speech == nil ? blockEnd : max(start, lastSpeechFrame ?? blockEnd))
                lastLoudFrame = blockEnd
                phase = .recording
                roomWhileArmed.discardRecent()
                step.started = TakeStart(startFrame: start, triggerFrame: trigger)
            }
        case .recording:
            guard var current = take else { break }
            current.peak = max(current.peak, peak)
            if rms >= stopLevel { lastLoudFrame = blockEnd }
            if let speech {
                if speech { current.speechEndFrame = blockEnd }
                var end = current.speechEndFrame
                if sounding, lastLoudFrame <= current.speechEndFrame + trailingFrames { end = max(end, lastLoudFrame) }
                // In a loud room every block is loud: the unvoiced end of a word is what stands
                // out of the room, block after block (a gap of `tailGap` at most).
                if firstFrame <= max(end, current.soundEndFrame) + tailGapFrames, rms >= tailLevel {
                    end = max(end, min(blockEnd, current.speechEndFrame + tailFrames))
                }
                current.soundEndFrame = max(current.soundEndFrame, end)
            } else if sounding {
                current.soundEndFrame = max(current.soundEndFrame, lastLoudFrame)
                current.speechEndFrame = current.soundEndFrame
            }
            take = current
            if let maximumFrames, blockEnd - current.startFrame >= maximumFrames {
                let split = current.startFrame + maximumFrames
                step.ended = end(current, at: split)
                if sounding, speechHeard {
                    take = Take(
                        startFrame: split, triggerFrame: split, soundEndFrame: blockEnd, peak: peak,
                        speechEndFrame: speech == nil ? blockEnd : max(split, lastSpeechFrame ?? blockEnd))
                    lastLoudFrame = blockEnd
                    phase = .recording
                    step.started = TakeStart(startFrame: split, triggerFrame: split)
                }
            } else if blockEnd - current.soundEndFrame >= hangFrames {
                step.ended = end(current, at: current.soundEndFrame + hangFrames)
                // The smoothed level still remembers the take's sound (it takes about a second
                // to fall from speech to the threshold): after a hang time of quiet it starts
                // again from this quiet block, or a short hang would start a new take at once.
                smoothedLevel = level
            }
        }
        return step
    }

    /// Passes over a block the owner wants ignored (the talking-app replay playing into the
    /// room): while armed, nothing can start from it, its frames are not pre-roll for a later
    /// take, the level starts again from silence and the room's noise floor does not see it. A
    /// take in progress hears it as silence (and ends after its hang time).
    public mutating func ignore(frames: Int, firstFrame: Int) -> Step {
        guard phase == .armed else {
            return consume(peak: 0, rms: 0, frames: frames, firstFrame: firstFrame, speech: judgesSpeech ? false : nil)
        }
        guard frames > 0 else { return Step() }
        position = firstFrame + frames
        smoothedLevel = 0
        levelCrossFrame = nil
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
        levelCrossFrame = nil
        let soundEnd = min(current.soundEndFrame, endFrame)
        // With speech judgements the minimum counts from the take's first frame (its pre-roll
        // included), so a one-word answer is kept; by level alone, sound from the trigger.
        let kept = judgesSpeech
            ? soundEnd - current.startFrame >= minimumFrames
            : soundEnd - current.triggerFrame >= minimumFrames
        return TakeEnd(
            startFrame: current.startFrame, triggerFrame: current.triggerFrame, endFrame: endFrame,
            soundEndFrame: soundEnd, keep: kept,
            peakDB: Self.decibels(current.peak))
    }

    static func amplitude(_ decibels: Double) -> Float {
        decibels <= -160 ? 0 : Float(pow(10, decibels / 20))
    }

    static func decibels(_ amplitude: Float) -> Float {
        amplitude > 0 ? max(-160, 20 * log10f(amplitude)) : -160
    }
}
