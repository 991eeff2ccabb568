import Audio
/// The parameters of voice-activated recording.
///
/// Durations are in seconds, levels in dBFS. The defaults follow the product spec:
/// start at −40 dBFS, stop listening for the end below 6 dB less, 3 s of silence
/// ends a take, takes with less than 0.5 s of sound are discarded, 0.3 s of pre-roll.
/// (The hang time was 2 s: a four-sentence standup spoken with pauses of about 2 s became
/// four memos; at 2.5 s, too. 3 s keeps pauses up to 2.5 s in one take, and the app's
/// `VoiceParameters` has the same default.)
public struct VoiceActivationSettings: Sendable, Equatable {
    /// Which per-block measure the start decision smooths. The end of a take is always
    /// judged on RMS (see `VoiceActivation`).
    public enum Detector: String, Sendable, Equatable, CaseIterable {
        /// The largest absolute sample (the classic talking-app detector): starts on clicks
        /// and on the peaks of room noise 10–15 dB above its RMS.
        case peak
        /// The root mean square over the block: what the meter's bar shows (the default).
        case rms
    }

    /// The smoothed level that starts a take, in dBFS.
    public var startThresholdDB: Double
    /// The level below which the room's 200 ms RMS counts as silence, in dBFS; `nil` is 6 dB below
    /// the start threshold. At most the start threshold (hysteresis).
    public var stopThresholdDB: Double?
    /// Seconds of continuous silence that end a take.
    public var hangTime: Double
    /// Takes with less sound than this (from the trigger to the last sound) are discarded.
    public var minimumTake: Double
    /// Seconds of audio from before the trigger that start each take.
    public var preRoll: Double
    /// Takes are split when they reach this length; `nil` never splits.
    public var maximumTake: Double?
    /// Listen this long first and set the start threshold at the noise floor plus
    /// `calibrationMargin`; `nil` uses `startThresholdDB` as given.
    public var calibrationTime: Double?
    /// How far above the measured noise floor a calibrated start threshold sits, in dB.
    public var calibrationMargin: Double
    /// The detector's measure.
    public var detector: Detector
    /// Whether a take needs speech (`SpeechDetector`) as well as the level to start, and ends a
    /// hang time after the last speech; `false` decides on the level alone.
    public var listensForSpeech: Bool

    /// The longest pre-roll accepted, in seconds (the history the tap keeps is sized for it).
    public static let longestPreRoll = 10.0
    /// How far the stop threshold sits below the start threshold unless set.
    public static let defaultHysteresis = 6.0

    public init(
        startThresholdDB: Double = -40, stopThresholdDB: Double? = nil, hangTime: Double = 3.0,
        minimumTake: Double = 0.5, preRoll: Double = 0.3, maximumTake: Double? = nil,
        calibrationTime: Double? = nil, calibrationMargin: Double = 12, detector: Detector = .rms,
        listensForSpeech: Bool = true
    ) {
        self.listensForSpeech = listensForSpeech
        self.startThresholdDB = startThresholdDB
        self.stopThresholdDB = stopThresholdDB
        self.hangTime = hangTime
        self.minimumTake = minimumTake
        self.preRoll = preRoll
        self.maximumTake = maximumTake
        self.calibrationTime = calibrationTime
        self.calibrationMargin = calibrationMargin
        self.detector = detector
    }

    /// The stop threshold in effect for a given start threshold.
    public func effectiveStopThresholdDB(forStart start: Double) -> Double {
        min(stopThresholdDB ?? start - Self.defaultHysteresis, start)
    }

    /// Checks every value; the error names the setting, the value and what is allowed.
    public func validate() throws(RecorderError) {
        func refuse(_ text: String) -> RecorderError { RecorderError(.settings, text) }
        guard startThresholdDB.isFinite, (-160...0).contains(startThresholdDB) else {
            throw refuse("the voice-activation threshold must be from -160 to 0 dBFS, not \(startThresholdDB)")
        }
        if let stop = stopThresholdDB {
            guard stop.isFinite, (-160...0).contains(stop), stop <= startThresholdDB else {
                throw refuse("the voice-activation stop threshold must be from -160 dBFS up to the start threshold (\(startThresholdDB)), not \(stop)")
            }
        }
        guard hangTime.isFinite, hangTime > 0, hangTime <= 3600 else {
            throw refuse("the voice-activation silence must be more than 0 s and at most an hour, not \(hangTime) s")
        }
        guard minimumTake.isFinite, minimumTake >= 0, minimumTake <= 3600 else {
            throw refuse("the voice-activation minimum must be from 0 s to an hour, not \(minimumTake) s")
        }
        guard preRoll.isFinite, preRoll >= 0, preRoll <= Self.longestPreRoll else {
            throw refuse("the voice-activation pre-roll must be from 0 to \(Int(Self.longestPreRoll)) s, not \(preRoll) s")
        }
        if let maximumTake {
            guard maximumTake.isFinite, maximumTake >= 1 else {
                throw refuse("the voice-activation maximum take must be at least 1 s, not \(maximumTake) s")
            }
        }
        if let calibrationTime {
            guard calibrationTime.isFinite, calibrationTime > 0, calibrationTime <= 60 else {
                throw refuse("the voice-activation calibration must last more than 0 s and at most 60 s, not \(calibrationTime) s")
            }
        }
        guard calibrationMargin.isFinite, (0...100).contains(calibrationMargin) else {
            throw refuse("the voice-activation calibration margin must be from 0 to 100 dB, not \(calibrationMargin)")
        }
    }
}
