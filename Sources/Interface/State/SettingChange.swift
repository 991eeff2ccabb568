import Vocabulary

/// One setting a person changed in the app, with its new value: the runner keeps it in the
/// config file (`Effect.saveSettings`), so the next start begins with it. Which config key
/// holds each one is the config file's business, not the reducer's.
public enum SettingChange: Sendable, Hashable {
    /// The `V` panel's voice-activation rows.
    case voiceThreshold(Double), voiceSilence(Double), voiceMinimum(Double), voicePreRoll(Double)
    /// The `V` panel's replay rows.
    case replay(Bool), replayPitch(Double)
    /// The `V` panel's noise-alert rows.
    case alert(Bool), alertLevel(Double), alertHold(Double)
    /// `m`.
    case meterMode(MeterMode)
    /// `i`: an input the picker chose, once it opened.
    case input(InputName)
    /// `O`.
    case playbackDevice(String)
    /// `f`.
    case enhance(Bool)
    /// `-` and `+`.
    case volume(Int)
    /// `a`.
    case sortOrder(MemoSortOrder)

    /// Which setting this is, whatever its value: a later change of the same setting
    /// replaces an earlier one still waiting to be written.
    public var setting: String {
        switch self {
        case .voiceThreshold: "voiceThreshold"
        case .voiceSilence: "voiceSilence"
        case .voiceMinimum: "voiceMinimum"
        case .voicePreRoll: "voicePreRoll"
        case .replay: "replay"
        case .replayPitch: "replayPitch"
        case .alert: "alert"
        case .alertLevel: "alertLevel"
        case .alertHold: "alertHold"
        case .meterMode: "meterMode"
        case .input: "input"
        case .playbackDevice: "playbackDevice"
        case .enhance: "enhance"
        case .volume: "volume"
        case .sortOrder: "sortOrder"
        }
    }

    /// The settings that differ between `before` and `after`, with their values in `after`. Pure.
    static func between(_ before: AppState, _ after: AppState) -> [SettingChange] {
        let old = before.keptSettings
        let new = after.keptSettings
        return new.filter { !old.contains($0) }
    }
}

extension AppState {
    /// Every setting the app keeps, with its value now. The input counts only once the
    /// picker chose one and it opened (`chosenInput`): the one given by `--source` is not kept.
    var keptSettings: [SettingChange] {
        let voice = voice.parameters
        var settings: [SettingChange] = [
            .voiceThreshold(voice.thresholdDB), .voiceSilence(voice.silence), .voiceMinimum(voice.minimum),
            .voicePreRoll(voice.preRoll), .replay(voice.replay.isOn), .replayPitch(voice.replay.pitchSemitones),
            .alert(alert.parameters.isOn), .alertLevel(alert.parameters.levelDB), .alertHold(alert.parameters.hold),
            .meterMode(meterMode), .playbackDevice(playbackDevice), .enhance(playbackSettings.enhances),
            .volume(playbackSettings.volumePercent), .sortOrder(sortOrder),
        ]
        if let chosenInput { settings.append(.input(chosenInput)) }
        return settings
    }
}
