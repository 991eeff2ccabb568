import Audio

/// `voicememo devices`: the ALSA PCMs that can capture and play, as `arecord -L` lists them,
/// less ALSA's helper plugins (`ALSADeviceInfo.isHelperPlugin`) unless `--all`: those are named
/// on one line, as the app's pickers do.
enum DevicesRunner {
    static func run(_ options: DevicesOptions, console: Console) -> ExitCode {
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
}
