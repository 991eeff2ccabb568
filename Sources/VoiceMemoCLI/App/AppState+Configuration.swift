import Audio
import Interface
import MemoLibrary
import Vocabulary
import Metering

extension AppState {
    /// Takes the config file's meter range, peak hold, meter mode, loudness target,
    /// voice-activation and noise-alert defaults, playback volume and enhancement, and table
    /// order, and the library's title limit.
    mutating func apply(_ configuration: Configuration) {
        // Not configurable: the library's rule, handed to the reducer (see `titleMaximumLength`).
        titleMaximumLength = MemoTitle.maximumLength
        if let floor = configuration.meterMinimumDB {
            meterScale = .table(MeterTable(minDecibels: Float(floor)))
        }
        if let hold = configuration.meterPeakHold { peakHoldTime = hold }
        if let mode = configuration.meterMode { meterMode = mode }
        if let target = configuration.loudnessTarget { loudnessTarget = target }
        captions.isOn = configuration.captions ?? false
        transcription.isEnabled = (configuration.transcribeMode ?? .auto) == .auto
        let defaults = configuration.voiceActivationSettings
        voice.parameters = VoiceParameters(
            thresholdDB: defaults.startThresholdDB, silence: defaults.hangTime, minimum: defaults.minimumTake,
            preRoll: defaults.preRoll, listensForSpeech: defaults.listensForSpeech,
            replay: ReplayParameters(isOn: configuration.voxReplay ?? false, pitchSemitones: configuration.voxReplayPitch ?? 0))
        if let isOn = configuration.alertOn { alert.parameters.isOn = isOn }
        if let level = configuration.alertLevelDB { alert.parameters.levelDB = level }
        if let hold = configuration.alertHold { alert.parameters.hold = hold }
        if let volume = configuration.playbackVolume { playbackSettings.volumePercent = volume }
        if let enhances = configuration.playbackEnhances { playbackSettings.enhances = enhances }
        if let order = configuration.sortOrder { sortOrder = order }
    }
}
