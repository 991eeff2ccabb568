import Audio
import Vocabulary
import Interface

/// The inputs the picker offers, and how a failure to open one is said.
enum InputChoices {
    /// ALSA's capture devices (as `arecord -L` lists them) less its helper plugins, the
    /// current input, and test tones; the current input first.
    static func available(current: InputSource) -> InputChoiceList {
        list(devices: ALSADevices.list(stream: .capture), current: current.name)
    }

    /// The picker's list from ALSA's `devices`: the current input (`current`) first, marked "now", then the rest in ALSA's order, then the test tones; the
    /// helper plugins (`ALSADeviceInfo.isHelperPlugin`: converters, mixers, `null`) only
    /// named as hidden, unless one is the current input.
    static func list(devices: [ALSADeviceInfo], current: InputName) -> InputChoiceList {
        var choices: [InputChoice] = []
        var hidden: [String] = []
        for device in devices {
            let source = InputName.alsa(device: device.name)
            if device.isHelperPlugin, source != current {
                hidden.append(device.name)
                continue
            }
            choices.append(InputChoice(source: source, description: device.description.split(whereSeparator: \.isNewline).joined(separator: " — ")))
        }
        choices += [
            InputChoice(source: .tone(frequency: 440, peakDBFS: -12), description: "test tone, 440 Hz at −12 dBFS"),
            InputChoice(source: .tone(frequency: 1000, peakDBFS: -3), description: "test tone, 1 kHz at −3 dBFS (loud)"),
        ]
        let now: InputChoice
        if let index = choices.firstIndex(where: { $0.source == current }) {
            let found = choices.remove(at: index)
            now = InputChoice(source: found.source, description: found.description.isEmpty ? "now" : "now — " + found.description)
        } else {
            // Given with --source, in the config file or the default, but not among ALSA's
            // devices (a name of the user's own, or `default` on a machine without one).
            let unlisted = if case .alsa = current { "now — not among ALSA's devices (arecord -L)" } else { "now" }
            now = InputChoice(source: current, description: unlisted)
        }
        return InputChoiceList(choices: [now] + choices, hidden: hidden)
    }

    /// The output picker's list from ALSA's playback `devices`: `current` first (the `--device`
    /// given, or the last choice), then ALSA's `default` and the devices it lists by name; the
    /// helper plugins only named as hidden, as the input picker does (`null` plays nothing,
    /// the converters and mixers wrap a device the list offers anyway).
    static func outputs(devices: [ALSADeviceInfo], current: String) -> (choices: [OutputChoice], hidden: [String]) {
        var choices = [OutputChoice(device: current, description: "now")]
        var hidden: [String] = []
        if current != "default" {
            choices.append(OutputChoice(device: "default", description: "ALSA's default device"))
        }
        for device in devices where !choices.contains(where: { $0.device == device.name }) {
            if device.isHelperPlugin {
                hidden.append(device.name)
                continue
            }
            choices.append(OutputChoice(
                device: device.name, description: device.description.split(whereSeparator: \.isNewline).joined(separator: " — ")))
        }
        return (choices, hidden)
    }

    /// What failed when an input did not open within `seconds` (a sound server that does
    /// not answer).
    static func noAnswer(_ source: InputSource, after seconds: Double) -> AppFailure {
        .inputNoAnswer(source.name, seconds: Int(seconds))
    }

    /// What failed when an input cannot be opened, decided on the typed cause (worded by
    /// `AppFailure.message`: "No microphone: ALSA 'default' cannot be opened (no such device:
    /// Unknown PCM default). Press i to choose an input.").
    static func openFailure(_ source: InputSource, _ error: RecorderError) -> AppFailure {
        switch (source, error.cause) {
        case (.alsa(let device, _), .alsa(let alsa)):
            let library = alsa.alsaMessage.isEmpty ? "" : ": \(alsa.alsaMessage)"
            return .microphoneNotOpened(device: device, reason: alsa.reasonWithDetail + library)
        case (.alsa(let device, _), _):
            return .microphoneNotOpened(device: device, reason: error.message)
        case (.pulse, _), (.tone, _), (.file, _), (.url, _):
            return .inputNotOpened(source.name, detail: error.message)
        }
    }
}
