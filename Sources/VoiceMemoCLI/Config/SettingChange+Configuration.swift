import Interface
import Vocabulary

extension SettingChange {
    /// The config key that keeps this setting and its value as the key reads it back
    /// (`ConfigurationParser`): `("vox.threshold", "-35")`, `("vox.silence", "2.5s")`.
    var configurationEntry: (key: String, value: String) {
        switch self {
        case .voiceThreshold(let decibels): ("vox.threshold", Self.number(decibels))
        case .voiceSilence(let seconds): ("vox.silence", Self.seconds(seconds))
        case .voiceMinimum(let seconds): ("vox.min", Self.seconds(seconds))
        case .voicePreRoll(let seconds): ("vox.preroll", Self.seconds(seconds))
        case .replay(let isOn): ("vox.replay", Self.onOff(isOn))
        case .replayPitch(let semitones): ("vox.replay_pitch", Self.number(semitones))
        case .alert(let isOn): ("alert", Self.onOff(isOn))
        case .alertLevel(let decibels): ("alert.level", Self.number(decibels))
        case .alertHold(let seconds): ("alert.hold", Self.seconds(seconds))
        case .meterMode(let mode): ("meter.mode", mode.rawValue)
        case .input(let name): ("source", name.description)
        case .playbackDevice(let device): ("play.device", device)
        case .enhance(let isOn): ("play.enhance", Self.onOff(isOn))
        case .volume(let percent): ("play.volume", String(percent))
        case .sortOrder(let order): ("sort", ConfigurationParser.sortOrderNames.first { $0.order == order }?.name ?? "newest")
        }
    }

    /// `-40`, `2.5`: whole numbers without a fraction.
    private static func number(_ value: Double) -> String {
        InputName.numberText(value)
    }

    /// `3s`, `0.3s`.
    private static func seconds(_ value: Double) -> String {
        number(value) + "s"
    }

    private static func onOff(_ isOn: Bool) -> String {
        isOn ? "on" : "off"
    }
}
