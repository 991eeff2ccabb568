import Foundation
import TestSupport

extension VoiceMemoSandbox {
    /// The ALSA device name `usePulse()` defines.
    static let pulseDevice = "vm_pulse"

    /// Gives the sandbox a real-time audio path of its own: a private null sink on the suite's
    /// PulseAudio daemon, as ALSA device `vm_pulse` (playback into the sink, capture from its
    /// monitor) and as `PULSE_SERVER`/`PULSE_SINK` for `paplay`.
    ///
    /// Keep the returned sink alive for as long as the test uses it.
    /// - Throws: `PulseTestServer.Unavailable` saying why there is no daemon: the test fails.
    func usePulse() throws -> PulseTestSink {
        let sink = try PulseTestServer.require().makeSink()
        let path = file("pulse-alsa.conf")
        try Data(sink.alsaDefinitions(device: Self.pulseDevice).utf8).write(to: URL(fileURLWithPath: path))
        environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:" + path
        environment["PULSE_SERVER"] = sink.server
        environment["PULSE_SINK"] = sink.name
        return sink
    }

    /// A sandbox whose audio is a private PulseAudio daemon of its test's own (the one a test
    /// stalls with SIGSTOP), as ALSA device `device` (the daemon's default sink and source) and
    /// as `PULSE_SERVER`; `DAEMON` holds its process id for the sandbox's scripts.
    static func onPrivatePulse(_ daemon: PulsePrivateDaemon, device: String) throws -> VoiceMemoSandbox {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.file("stall-alsa.conf")
        try Data(daemon.alsaDefinitions(device: device).utf8).write(to: URL(fileURLWithPath: path))
        sandbox.environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:" + path
        sandbox.environment["PULSE_SERVER"] = daemon.address
        sandbox.environment["DAEMON"] = String(daemon.pid)
        return sandbox
    }

    /// A pulse source's volume and mute as the server reports them (`pactl`): `(percent, muted)`.
    func pulseSourceState(_ source: String) throws -> (Int, Bool) {
        let volume = try shell("pactl get-source-volume '\(source)'").standardOutput
        let mute = try shell("pactl get-source-mute '\(source)'").standardOutput
        let percent = volume.split(separator: "/").dropFirst().first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return (Int(percent.dropLast()) ?? -1, mute.contains("yes"))
    }

    /// A pulse source's volume per channel in dB as the server reports it (`pactl
    /// get-source-volume`); `-inf` for a silent channel.
    func pulseSourceDecibels(_ source: String) throws -> [Double] {
        let volume = try shell("pactl get-source-volume '\(source)'").standardOutput
        let line = volume.split(separator: "\n").first.map(String.init) ?? ""
        return line.split(separator: ",").compactMap { channel in
            let fields = channel.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let decibels = fields.last, decibels.hasSuffix(" dB") else { return nil }
            return Double(decibels.dropLast(3))
        }
    }
}
