import Foundation
import TestSupport
import Testing

/// `voicememo gain --source pulse:NAME`: the sound server's own volume of a source, in dB,
/// on a "microphone" of each test's own on the suite's PulseAudio daemon; what it sets is what
/// the server then reports (`pactl`).
@Suite struct ServerSourceGainCommandTests {
    /// Every channel within 0.5 dB of `expected`.
    static func near(_ channels: [Double], _ expected: Double) -> Bool {
        !channels.isEmpty && channels.allSatisfy { abs($0 - expected) <= 0.5 }
    }

    @Test func changesTheSourcesVolumeInDecibelsAndItsMute() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let source = "pulse:\(microphone.source)"

        let down = try sandbox.run("gain", "--source", source, "-6dB")
        #expect(down.status == 0, "\(down)")
        #expect(
            down.standardOutput == "\(source): USB Headset Mono -6.0 dB (-60.0 to 10.6 dB, 79 %), on (sound server \(microphone.server))\n",
            "\(down)")
        var decibels = try sandbox.pulseSourceDecibels(microphone.source)
        #expect(Self.near(decibels, -6), "\(decibels)")

        for expected in [-5.0, -4.0] {
            let up = try sandbox.run("gain", "--source", source, "+1dB")
            #expect(up.status == 0 && up.standardOutput.contains(String(format: "Mono %.1f dB", expected)), "\(up)")
            decibels = try sandbox.pulseSourceDecibels(microphone.source)
            #expect(Self.near(decibels, expected), "\(decibels)")
        }

        let set = try sandbox.run("gain", "--source", source, "=-20dB", "--json")
        #expect(set.status == 0, "\(set)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(set.standardOutput.utf8)) as? [String: Any])
        #expect(json["device"] as? String == microphone.server)
        #expect(json["control"] as? String == "USB Headset Mono")
        #expect((json["db"] as? Double).map { abs($0 - -20) <= 0.01 } == true, "\(json)")
        #expect(json["db_min"] as? Double == -60)
        #expect((json["db_max"] as? Double).map { abs($0 - 10.57) < 0.01 } == true, "\(json)")
        #expect(json["switch"] as? Bool == true)
        #expect(Self.near(try sandbox.pulseSourceDecibels(microphone.source), -20))

        let mute = try sandbox.run("gain", "--source", source, "mute")
        #expect(mute.status == 0 && mute.standardOutput.contains("switched off"), "\(mute)")
        #expect(try sandbox.pulseSourceState(microphone.source).1, "pactl get-source-mute says yes")
        let toggled = try sandbox.run("gain", "--source", source, "toggle")
        #expect(toggled.status == 0 && toggled.standardOutput.contains(", on (sound server"), "\(toggled)")
        #expect(try sandbox.pulseSourceState(microphone.source).1 == false, "pactl get-source-mute says no")

        // Per cent is the server's own: 50 % is what pactl calls 50 %.
        let half = try sandbox.run("gain", "--source", source, "50%")
        #expect(half.status == 0, "\(half)")
        #expect(try sandbox.pulseSourceState(microphone.source) == (50, false))
        // A change in dB stays within the range: +30 dB from 50 % stops at 150 %.
        let loud = try sandbox.run("gain", "--source", source, "+30dB")
        #expect(loud.status == 0 && loud.standardOutput.contains("10.6 dB (-60.0"), "\(loud)")
        #expect(try sandbox.pulseSourceState(microphone.source).0 == 150)
    }

    /// Channels at different volumes keep their difference: every channel moves alike (50 %
    /// is −18.06 dB on the server's cubic scale).
    @Test func aChangeKeepsTheBalanceBetweenChannels() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let balanced = try sandbox.shell("pactl set-source-volume '\(microphone.source)' 100% 50%")
        try #require(balanced.status == 0, "\(balanced)")

        let down = try sandbox.run("gain", "--source", "pulse:\(microphone.source)", "-3dB")
        #expect(down.status == 0 && down.standardOutput.contains("Mono -3.0 dB"), "the loudest channel's: \(down)")
        let decibels = try sandbox.pulseSourceDecibels(microphone.source)
        #expect(decibels.count == 2 && abs(decibels[0] - -3) <= 0.5 && abs(decibels[1] - -21.06) <= 0.5, "\(decibels)")
    }

    /// `pulse:default` is the server's default source, by its own name and description.
    @Test func theDefaultSourceIsTheServersDefault() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let read = try sandbox.run("gain", "--source", "pulse:default")
        #expect(read.status == 0, "\(read)")
        // The suite's daemon's default source is its null sink's monitor.
        #expect(read.standardOutput.hasPrefix("pulse:default: Monitor of Null Output "), "\(read)")
    }

    /// A source the server does not have: a usage error naming it and the sources it has;
    /// no server at all: a failure naming the address.
    @Test func anUnknownSourceOrNoServerIsAnErrorNamingIt() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let unknown = try sandbox.run("gain", "--source", "pulse:nope", "-6dB")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.standardError.contains("pulse:nope: the sound server at \(microphone.server) has no source \"nope\""), "\(unknown)")
        #expect(unknown.standardError.contains(microphone.source), "its sources are listed: \(unknown)")

        let nowhere = "unix:" + sandbox.file("no-server-here")
        sandbox.environment["PULSE_SERVER"] = nowhere
        let alone = try sandbox.run("gain", "--source", "pulse:\(microphone.source)")
        #expect(alone.status == 1, "\(alone)")
        #expect(alone.standardError.contains("no sound server answers at \(nowhere)"), "\(alone)")
    }

    /// A stalled server (SIGSTOP, a daemon of the test's own) is given the volume's 2 s, then
    /// `gain` fails naming the server, instead of waiting for it.
    @Test func aStalledServerIsGivenUpAfterTwoSeconds() throws {
        let daemon = try PulsePrivateDaemon()
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = daemon.address
        daemon.suspend()
        defer { daemon.resume() }
        let start = ContinuousClock.now
        let stalled = try sandbox.run("gain", "--source", "pulse:default", "+1dB")
        let elapsed = ContinuousClock.now - start
        daemon.resume()
        #expect(stalled.status == 1, "\(stalled)")
        #expect(stalled.standardError.contains("did not answer within 2 s"), "\(stalled)")
        #expect(stalled.standardError.contains(String(daemon.address.dropFirst("unix:".count))), "\(stalled)")
        #expect(elapsed < .seconds(5), "took \(elapsed)")
    }
}
