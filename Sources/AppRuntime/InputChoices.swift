import Audio
import Vocabulary
import Interface

/// The inputs the picker offers, and how a failure to open one is said.
enum InputChoices {
    /// The sound server's sources when a server answers (`PulseDevices`, within its 1 s), ALSA's
    /// capture devices (as `arecord -L` lists them) less its converters and mixers, the current
    /// input, and test tones; the current input first. Run on the effect runner, never on the
    /// UI queue: a server that does not answer takes the whole second.
    static func available(current: InputSource) -> InputChoiceList {
        let server = try? PulseDevices.list()
        return list(serverSources: server?.sources, devices: ALSADevices.list(stream: .capture), current: current.name)
    }

    /// The picker's list: the current input (`current`) first, marked "now", then the sound
    /// server's `serverSources` in the server's order (nil when no server answered) and, when
    /// it has any, a meeting (its default source and what the desktop plays), then
    /// ALSA's `devices` in ALSA's order, then the test tones; ALSA's rate converters, mixers
    /// and `null` only named as hidden, unless one is the current input.
    static func list(serverSources: [PulseDeviceInfo]? = nil, devices: [ALSADeviceInfo], current: InputName) -> InputChoiceList {
        var choices = (serverSources ?? []).map(serverChoice)
        if !choices.isEmpty { choices.append(meetingChoice) }
        var hidden: [String] = []
        for device in devices {
            let source = InputName.alsa(device: device.name)
            if device.isHelperPlugin, source != current {
                hidden.append(device.name)
                continue
            }
            choices.append(InputChoice(source: source, description: oneLine(device.description)))
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
            now = InputChoice(source: current, description: unlisted(current, serverAnswered: serverSources != nil))
        }
        return InputChoiceList(choices: [now] + choices, hidden: hidden)
    }

    /// Both the sound server's default source and its default sink's monitor in one memo
    /// (`InputName.meeting`), as the picker offers it.
    static let meetingChoice = InputChoice(source: .meeting, description: "Meeting (mic + desktop)")

    /// A source of the sound server as the picker offers it: `pulse:NAME` by the server's
    /// description, its default marked as the current input is ("default — USB Headset Mono"),
    /// and a monitor whose description does not say so marked "monitor" (the server's own
    /// say "Monitor of …"; the name column may be cut before `.monitor`).
    static func serverChoice(_ source: PulseDeviceInfo) -> InputChoice {
        let description = oneLine(source.description)
        let namesMonitor = description.lowercased().hasPrefix("monitor")
        let marks = [source.isDefault ? "default" : nil, source.isMonitor && !namesMonitor ? "monitor" : nil].compactMap { $0 }
        let words = (marks + [description]).filter { !$0.isEmpty }
        return InputChoice(source: .pulse(source: source.name), description: words.joined(separator: " — "))
    }

    /// The "now" row of an input given with --source, in the config file or the default, but
    /// not in the lists: an ALSA name of the user's own (or `default` on a machine without
    /// one), a server source the server does not have (or no server answering), a tone, file
    /// or stream, whose origin is not known here.
    private static func unlisted(_ current: InputName, serverAnswered: Bool) -> String {
        switch current {
        case .alsa: "now — not among ALSA's devices (arecord -L)"
        case .pulse("default"): "now — the sound server's default source"
        case .pulse where serverAnswered: "now — not among the sound server's sources"
        case .pulse: "now — no sound server answers"
        case .joined where current == .meeting: "now — mic + desktop"
        case .tone, .file, .url, .joined: "now"
        }
    }

    /// A description of several lines (ALSA's: the card, then the device) on one.
    private static func oneLine(_ description: String) -> String {
        description.split(whereSeparator: \.isNewline).joined(separator: " — ")
    }

    /// The output picker's list: `current` first (the `--device` given, or the last choice),
    /// then the sound server's `serverSinks` as `pulse:NAME` by the server's description (nil
    /// when no server answered), then ALSA's `default` and the devices it lists by name; ALSA's
    /// helper plugins only named as hidden, as the input picker does (`null` plays nothing,
    /// the converters and mixers wrap a device the list offers anyway).
    static func outputs(
        serverSinks: [PulseDeviceInfo]? = nil, devices: [ALSADeviceInfo], current: String
    ) -> (choices: [OutputChoice], hidden: [String]) {
        let sinks = (serverSinks ?? []).map { sink in
            let description = oneLine(sink.description)
            let words = [sink.isDefault ? "default" : nil, description.isEmpty ? nil : description].compactMap { $0 }
            return OutputChoice(device: "pulse:" + sink.name, description: words.joined(separator: " — "))
        }
        let now = sinks.first { $0.device == current }.map { "now — " + $0.description } ?? "now"
        var choices = [OutputChoice(device: current, description: now)] + sinks.filter { $0.device != current }
        var hidden: [String] = []
        if current != "default" {
            choices.append(OutputChoice(device: "default", description: "ALSA's default device"))
        }
        for device in devices where !choices.contains(where: { $0.device == device.name }) {
            if device.isHelperPlugin {
                hidden.append(device.name)
                continue
            }
            choices.append(OutputChoice(device: device.name, description: oneLine(device.description)))
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
        case (.pulse, _), (.tone, _), (.file, _), (.url, _), (.joined, _):
            return .inputNotOpened(source.name, detail: error.message)
        }
    }
}
