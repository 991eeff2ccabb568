import Audio
import Interface

/// The inputs the picker offers, and how a failure to open one is said.
enum InputChoices {
    /// ALSA's capture devices (as `arecord -L` lists them), the current input, and test tones.
    static func available(current: InputSource) -> [InputChoice] {
        var choices = ALSADevices.list(stream: .capture).map { device in
            InputChoice(
                source: "alsa:\(device.name)",
                description: device.description.split(whereSeparator: \.isNewline).joined(separator: " — "))
        }
        let tones = [
            InputChoice(source: "tone:440@-12", description: "test tone, 440 Hz at −12 dBFS"),
            InputChoice(source: "tone:1000@-3", description: "test tone, 1 kHz at −3 dBFS (loud)"),
        ]
        choices += tones
        if !choices.contains(where: { $0.source == current.description }) {
            choices.insert(InputChoice(source: current.description, description: "the input given with --source"), at: 0)
        }
        return choices
    }

    /// The playback devices for the output picker: `current` first (the `--device` given, or
    /// the last choice), then ALSA's `default` and the devices it lists by name.
    static func outputs(current: String) -> [InputChoice] {
        var choices = [InputChoice(source: current, description: "now")]
        if current != "default" {
            choices.append(InputChoice(source: "default", description: "ALSA's default device"))
        }
        for device in ALSADevices.list(stream: .playback) where !choices.contains(where: { $0.source == device.name }) {
            choices.append(InputChoice(
                source: device.name, description: device.description.split(whereSeparator: \.isNewline).joined(separator: " — ")))
        }
        return choices
    }

    /// The status-line words for an input that did not open within `seconds` (a sound
    /// server that does not answer).
    static func noAnswer(_ source: InputSource, after seconds: Double) -> String {
        "No answer from \(source) for \(Int(seconds)) s: is the audio server running? Press i to choose an input."
    }

    /// The status-line words for an input that cannot be opened, e.g. "No microphone:
    /// ALSA 'default' cannot be opened (no such device: Unknown PCM default). Press i to
    /// choose an input."
    static func openFailure(_ source: InputSource, _ error: RecorderError) -> String {
        switch (source, error.cause) {
        case (.alsa(let device, _), .alsa(let alsa)):
            let library = alsa.alsaMessage.isEmpty ? "" : ": \(alsa.alsaMessage)"
            return "No microphone: ALSA '\(device)' cannot be opened (\(alsa.reasonWithDetail)\(library)). Press i to choose an input."
        case (.alsa(let device, _), _):
            return "No microphone: ALSA '\(device)' cannot be opened (\(error.message)). Press i to choose an input."
        case (.tone, _), (.file, _), (.url, _):
            return "The input \(source) cannot be opened: \(error.message). Press i to choose an input."
        }
    }
}
