import Foundation
import TestSupport
import Testing

/// The sound server's sources through PipeWire's own PulseAudio server (what Debian's
/// `pipewire-pulse` runs on a PipeWire desktop), on a private PipeWire daemon with WirePlumber:
/// `devices`, `record --source pulse:NAME`, `gain` in dB and a meeting, as against PulseAudio.
/// The "microphone" is `PulseTestMicrophone` loaded through the server's PulseAudio protocol.
@Suite struct PipeWirePulseServerTests {
    /// The source listed by its description, one second of its tone recorded by name at the
    /// tone's level, and `gain` turning it down 6 dB on the server.
    @Test func aSourceIsListedRecordedAndTurnedDownByName() throws {
        let daemon = try PipeWirePrivateDaemon(linking: true)
        let server = try daemon.startPulseServer()
        let microphone = try PulseTestMicrophone(server: server, description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = server
        let devices = try sandbox.run("devices")
        #expect(devices.status == 0, "\(devices)")
        #expect(devices.standardOutput.hasPrefix("Sound server sources (--source pulse:NAME; PulseAudio (on PipeWire "), "\(devices)")
        #expect(devices.standardOutput.contains("\n  pulse:\(microphone.source) — USB Headset Mono"), "\(devices)")

        try MeetingCommandTests.writeTones(in: sandbox)
        let recorded = try sandbox.shell(
            MeetingCommandTests.playing([("mic.wav", microphone.feed)]) + """
                voicememo record --source pulse:\(microphone.source) --duration 1s --format wav --title Headset --no-transcribe
                """, timeout: .seconds(60))
        #expect(recorded.status == 0, "\(recorded)")
        let channels = try MeetingCommandTests.channels(ofOnlyMemoIn: sandbox)
        try #require(channels.count == 2)
        #expect(channels[0].count == 48_000, "\(channels[0].count) frames")
        // The tone is written at 0.5 (−6 dBFS peak) and mixed to stereo as it is.
        let level = MeetingCommandTests.power(channels[0].suffix(24_000), hertz: MeetingCommandTests.microphoneHz)
        #expect(level > -15, "the microphone's tone at \(level) dB")

        let gain = try sandbox.run("gain", "--source", "pulse:\(microphone.source)", "-6dB")
        #expect(gain.status == 0, "\(gain)")
        #expect(gain.standardOutput.contains("USB Headset Mono -6.0 dB"), "\(gain)")
        let volume = try Tool.run("/usr/bin/pactl", ["--server=\(server)", "get-source-volume", microphone.source])
        #expect(volume.text.contains("-6.00 dB"), "\(volume.text)")
    }

    /// `meeting` on PipeWire: its default source left, what its default sink plays right. The
    /// default sink's monitor is opened by its own name (PipeWire's server does not know
    /// `@DEFAULT_MONITOR@`).
    @Test func aMeetingRecordsTheDefaultSourceAndTheDesktop() throws {
        let daemon = try PipeWirePrivateDaemon(linking: true)
        let server = try daemon.startPulseServer()
        let microphone = try PulseTestMicrophone(server: server, description: "Meeting Mic")
        let desktop = try PulseTestSink.load(on: server)
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = server
        try MeetingCommandTests.writeTones(in: sandbox)
        let outcome = try sandbox.shell(
            """
            pactl set-default-source \(microphone.source) && pactl set-default-sink \(desktop.name) || exit 90
            """ + MeetingCommandTests.playing([("mic.wav", microphone.feed), ("desk.wav", desktop.name)]) + """
                voicememo record --source meeting --duration 2s --format wav --title Meeting --no-transcribe
                """, timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        let recorded = try MeetingCommandTests.channels(ofOnlyMemoIn: sandbox)
        try #require(recorded.count == 2)
        let microphoneSide = recorded[0].suffix(48_000)
        let desktopSide = recorded[1].suffix(48_000)
        let mic = MeetingCommandTests.microphoneHz
        let desk = MeetingCommandTests.desktopHz
        #expect(MeetingCommandTests.power(microphoneSide, hertz: mic) - MeetingCommandTests.power(microphoneSide, hertz: desk) >= 30)
        #expect(MeetingCommandTests.power(desktopSide, hertz: desk) - MeetingCommandTests.power(desktopSide, hertz: mic) >= 30)
    }
}
