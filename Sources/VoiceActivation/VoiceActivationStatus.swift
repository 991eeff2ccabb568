import Audio
/// A snapshot of voice activation for a display: what the detector is doing and how
/// far the silence countdown has run.
public struct VoiceActivationStatus: Sendable, Equatable {
    public var phase: VoiceActivation.Phase
    /// The smoothed detector level, in dBFS.
    public var levelDB: Float
    /// The start threshold in effect (calibrated, once calibration has finished).
    public var startThresholdDB: Double
    /// The level below which a block counts as silence.
    public var stopThresholdDB: Double
    /// Seconds of silence so far in the current take (0 when none is in progress).
    public var silence: Double
    /// Seconds of silence that end a take.
    public var hangTime: Double
    /// Frames of the take in progress so far, pre-roll included (0 when none is in progress):
    /// what the take's file will hold when it ends now.
    public var takeFrames: Int
    /// The room's noise floor in dBFS; `nil` until 250 ms have been heard.
    public var noiseFloorDB: Double?
    /// What the speech detector hears in the last block: speech (`true`) or not; `nil` when the
    /// level alone decides.
    public var hearsSpeech: Bool?
    /// Whether the speech detector heard speech in the last `VoiceActivation.recentSpeech` seconds.
    public var heardSpeechRecently: Bool
    /// Whether the floor is within `VoiceActivation.noiseMargin` of the start threshold.
    public var isNoiseCloseToThreshold: Bool {
        guard phase != .calibrating, let noiseFloorDB else { return false }
        return noiseFloorDB > startThresholdDB - VoiceActivation.noiseMargin
    }

    public init(
        phase: VoiceActivation.Phase, levelDB: Float, startThresholdDB: Double, stopThresholdDB: Double,
        silence: Double, hangTime: Double, takeFrames: Int = 0, noiseFloorDB: Double? = nil,
        hearsSpeech: Bool? = nil, heardSpeechRecently: Bool = false
    ) {
        self.hearsSpeech = hearsSpeech
        self.heardSpeechRecently = heardSpeechRecently
        self.noiseFloorDB = noiseFloorDB
        self.phase = phase
        self.levelDB = levelDB
        self.startThresholdDB = startThresholdDB
        self.stopThresholdDB = stopThresholdDB
        self.silence = silence
        self.hangTime = hangTime
        self.takeFrames = takeFrames
    }

    /// The status of `detector` now.
    public init(_ detector: VoiceActivation) {
        self.init(
            phase: detector.phase, levelDB: detector.smoothedLevelDB, startThresholdDB: detector.startThresholdDB,
            stopThresholdDB: detector.stopThresholdDB, silence: detector.silence,
            hangTime: detector.settings.hangTime,
            takeFrames: detector.currentTakeStart.map { max(detector.position - $0, 0) } ?? 0,
            noiseFloorDB: detector.noiseFloorDB, hearsSpeech: detector.hearsSpeech,
            heardSpeechRecently: detector.heardSpeechRecently)
    }
}
