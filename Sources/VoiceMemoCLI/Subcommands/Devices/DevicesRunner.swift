import Audio
import Vocabulary

/// `voicememo devices`: the sound server's sources and sinks when a server answers (libpulse,
/// `PulseDevices`: its names, descriptions, formats, the defaults and the monitors marked), then
/// the ALSA PCMs that can capture and play, as `arecord -L` lists them, less ALSA's helper
/// plugins (`ALSADeviceInfo.isHelperPlugin`) unless `--all`: those are named on one line, as the
/// app's pickers do. With no server answering, the server's part is left out.
enum DevicesRunner {
    static func run(_ options: DevicesOptions, console: Console) -> ExitCode {
        if let server = try? PulseDevices.list() {
            for line in serverLines(server) { console.printLine(line) }
        }
        for stream in [ALSAStream.capture, .playback] {
            let listed = ALSADevices.list(stream: stream)
            let devices = options.all ? listed : listed.filter { !$0.isHelperPlugin }
            let hidden = options.all ? [] : listed.filter(\.isHelperPlugin).map(\.name)
            console.printLine(stream == .capture ? "Capture devices (--source alsa:NAME):" : "Playback devices (--device NAME):")
            if devices.isEmpty {
                console.printLine(stream == .capture
                    ? "  none: ALSA lists no capture device on this machine (no sound card?); --source tone:1000@-12 needs none"
                    : "  none: ALSA lists no playback device on this machine")
            }
            for device in devices {
                console.printLine("  " + device.name)
                for line in device.description.split(separator: "\n") {
                    console.printLine("      " + line)
                }
            }
            if !hidden.isEmpty {
                console.printLine("  (not listed: \(hidden.count) converters and mixers, \(hidden.joined(separator: ", ")); --all lists them)")
            }
        }
        return .success
    }

    /// The server's part: its sources ("pulse:NAME — Description", the default and the
    /// monitors marked, then channels and rate), then its sinks ("pulse:NAME", as `play
    /// --device` takes them), whose monitors record what they play.
    static func serverLines(_ server: PulseDeviceList) -> [String] {
        var lines = ["Sound server sources (--source pulse:NAME; \(server.serverName) at \(server.server)):"]
        if server.sources.isEmpty { lines.append("  none: the sound server has no source") }
        for source in server.sources {
            lines += describe(source, as: InputName.pulse(source: source.name).description)
        }
        lines.append("Sound server sinks (play --device pulse:NAME; record what one plays with --source pulse:NAME.monitor):")
        if server.sinks.isEmpty { lines.append("  none: the sound server has no sink") }
        for sink in server.sinks {
            lines += describe(sink, as: "pulse:" + sink.name)
        }
        return lines
    }

    /// "  NAME — Description (default, monitor)", then its channels and rate.
    private static func describe(_ device: PulseDeviceInfo, as name: String) -> [String] {
        let marks = [device.isDefault ? "default" : nil, device.isMonitor ? "monitor" : nil].compactMap { $0 }
        let description = device.description.isEmpty ? "" : " — " + device.description
        let marked = marks.isEmpty ? "" : " (" + marks.joined(separator: ", ") + ")"
        let channels = device.channels == 1 ? "1 channel" : "\(device.channels) channels"
        return ["  " + name + description + marked, "      \(channels), \(device.sampleRate) Hz"]
    }
}
