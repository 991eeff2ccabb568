import Audio

/// `voicememo devices`: the ALSA PCMs that can capture and play, as `arecord -L` lists them.
enum DevicesRunner {
    static func run(console: Console) -> ExitCode {
        for stream in [ALSAStream.capture, .playback] {
            let devices = ALSADevices.list(stream: stream)
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
        }
        return .success
    }
}
