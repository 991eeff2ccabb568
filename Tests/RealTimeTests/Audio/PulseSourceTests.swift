import Dispatch
import Foundation
import Glibc
import SoundFiles
import Synchronization
import TestSupport
import Testing

@testable import Audio

/// The sound server's sources through libpulse, against real PulseAudio daemons: a "microphone"
/// of each test's own (`PulseTestMicrophone`: a null sink as its feed, a remapped source with a
/// description), listed.
@Suite struct PulseSourceTests {
    /// On a daemon of the test's own (its defaults are changed): the microphone and its feed
    /// are listed with the server's descriptions, formats and marks, and the default source
    /// and sink are marked.
    @Test func theListingShowsTheSourcesAndSinksWithDescriptionsAndDefaults() throws {
        let daemon = try PulsePrivateDaemon()
        let microphone = try PulseTestMicrophone(server: daemon.address, description: "USB Headset Mono")
        let defaults = try Tool.run(
            "/usr/bin/pactl", ["--server=\(daemon.address)", "set-default-source", microphone.source])
        try #require(defaults.status == 0, "\(defaults.standardError)")

        let listed = try PulseDevices.list(server: daemon.address)
        #expect(listed.serverName.hasPrefix("pulseaudio"), "\(listed.serverName)")
        let source = try #require(listed.sources.first { $0.name == microphone.source }, "\(listed.sources)")
        #expect(source.description == "USB Headset Mono")
        #expect(source.isDefault && !source.isMonitor)
        #expect(source.channels == 2 && source.sampleRate == 48_000, "\(source)")
        let monitor = try #require(listed.sources.first { $0.name == microphone.feed + ".monitor" }, "\(listed.sources)")
        #expect(monitor.description == "Monitor of Feed of USB Headset Mono")
        #expect(monitor.isMonitor && !monitor.isDefault)
        #expect(listed.sources.filter(\.isDefault).map(\.name) == [microphone.source])
        #expect(listed.defaultSource?.name == microphone.source)

        let feed = try #require(listed.sinks.first { $0.name == microphone.feed }, "\(listed.sinks)")
        #expect(feed.description == "Feed of USB Headset Mono" && !feed.isMonitor)
        // The daemon's own null sink stays its default sink.
        #expect(listed.sinks.filter(\.isDefault).map(\.name) == ["vsink"])
    }

    /// A server that is not there is an error at once, not a wait, and nothing is started.
    @Test func anAddressWithNoServerIsNoServer() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-no-pulse")
        let start = ContinuousClock.now
        #expect {
            _ = try PulseDevices.list(server: "unix:" + directory.file("native"))
        } throws: { error in
            (error as? PulseError)?.kind == .noServer
        }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    /// A stalled server (SIGSTOP) is given the listing's timeout, then taken as not answering.
    @Test func aStalledServerTimesOut() throws {
        let daemon = try PulsePrivateDaemon()
        daemon.suspend()
        defer { daemon.resume() }
        let start = ContinuousClock.now
        #expect {
            _ = try PulseDevices.list(server: daemon.address, timeout: .milliseconds(300))
        } throws: { error in
            (error as? PulseError)?.kind == .timedOut
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(2), "took \(elapsed)")
    }
}
