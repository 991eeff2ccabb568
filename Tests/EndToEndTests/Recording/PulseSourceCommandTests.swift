import Foundation
import TestSupport
import Testing

/// `voicememo devices` and `voicememo record --source pulse:NAME` against the suite's PulseAudio
/// daemon, with a "microphone" of each test's own (`PulseTestMicrophone`) and `PULSE_SERVER`
/// pointing at the daemon, as a desktop's environment does.
@Suite struct PulseSourceCommandTests {
    /// The server's sources come first, by name and description, the monitors and the default
    /// marked, then its sinks, then ALSA's devices as always.
    @Test func devicesListsTheServersSourcesFirstThenALSAs() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let outcome = try sandbox.run("devices")
        #expect(outcome.status == 0, "\(outcome)")
        let output = outcome.standardOutput
        #expect(output.hasPrefix("Sound server sources (--source pulse:NAME; pulseaudio "), "\(output)")
        #expect(output.contains("\n  pulse:\(microphone.source) — USB Headset Mono\n      2 channels, 48000 Hz\n"), "\(output)")
        #expect(output.contains("\n  pulse:\(microphone.feed).monitor — Monitor of Feed of USB Headset Mono (monitor)\n"), "\(output)")
        // The daemon's default source is its own null sink's monitor.
        #expect(output.contains("\n  pulse:vsink.monitor — Monitor of Null Output (default, monitor)\n"), "\(output)")
        #expect(output.contains("\n  pulse:\(microphone.feed) — Feed of USB Headset Mono\n"), "\(output)")
        let sources = try #require(output.range(of: "Sound server sources"))
        let sinks = try #require(output.range(of: "Sound server sinks"))
        let alsa = try #require(output.range(of: "Capture devices (--source alsa:NAME):"))
        #expect(sources.lowerBound < sinks.lowerBound && sinks.lowerBound < alsa.lowerBound)
    }

    /// `PULSE_SERVER` pointing where no server is: `devices` prints what it prints with no
    /// server at all, ALSA's devices only.
    @Test func devicesWithNoServerListsALSAsDevicesAsBefore() throws {
        let sandbox = try VoiceMemoSandbox()
        let alone = try sandbox.run("devices")
        sandbox.environment["PULSE_SERVER"] = "unix:" + sandbox.file("no-server-here")
        let pointedAtNothing = try sandbox.run("devices")
        for outcome in [alone, pointedAtNothing] {
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.standardOutput.hasPrefix("Capture devices (--source alsa:NAME):\n"), "\(outcome)")
            #expect(!outcome.standardOutput.contains("Sound server"), "\(outcome)")
            #expect(outcome.standardError.isEmpty, "\(outcome)")
        }
        #expect(pointedAtNothing.standardOutput == alone.standardOutput)
    }

    /// One second recorded from the microphone by name is a memo of one second's frames.
    @Test func recordFromAServerSourceByNameForOneSecond() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let outcome = try sandbox.run(
            "record", "--source", "pulse:\(microphone.source)", "--duration", "1s", "--format", "wav", "--title", "From the server")
        #expect(outcome.status == 0, "\(outcome)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(memo["frames"] as? Int == 48_000 && memo["title"] as? String == "From the server", "\(memo)")
    }

    /// A source the server does not have: a usage error (status 2) naming the sources it has,
    /// and no memo.
    @Test func recordFromAnUnknownServerSourceIsAUsageErrorNamingTheSources() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let outcome = try sandbox.run("record", "--source", "pulse:nope", "--duration", "1s")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("no source \"nope\""), "\(outcome)")
        #expect(outcome.standardError.contains(microphone.source), "\(outcome)")
        #expect(try sandbox.listedMemos().isEmpty)
    }
}
