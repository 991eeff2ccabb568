import Audio
import Interface
import Metering

extension AppState {
    /// Takes the config file's meter range, peak hold, meter mode, loudness target and
    /// voice-activation defaults.
    mutating func apply(_ configuration: Configuration) {
        if let floor = configuration.meterMinimumDB {
            meterScale = .table(MeterTable(minDecibels: Float(floor)))
        }
        if let hold = configuration.meterPeakHold { peakHoldTime = hold }
        if let mode = configuration.meterMode { meterMode = mode }
        if let target = configuration.loudnessTarget { loudnessTarget = target }
        let defaults = configuration.voiceActivationSettings
        voice.parameters = VoiceParameters(
            thresholdDB: defaults.startThresholdDB, silence: defaults.hangTime, minimum: defaults.minimumTake,
            preRoll: defaults.preRoll)
    }
}
