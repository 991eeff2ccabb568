import Dispatch
import Foundation
import Glibc
import TestSupport
import Testing

@testable import Audio

/// The player to a sink of the sound server by name (`pulse:NAME`, through libpulse), against
/// real PulseAudio daemons: a null sink of each test's own, whose monitor `parec` records, so
/// what the sink played is heard by a program that is not ours.
@Suite(.serialized)
struct PulsePlaybackTests {
    private func player(_ file: String, sink: String, server: String, log: PlayerEventLog) throws -> Player {
        try Player(
            url: file, device: "pulse:" + sink, configFile: nil, eventQueue: DispatchQueue(label: "pulse-playback-events"),
            events: log.events, operations: nil, server: server)
    }

    /// `parec` recording `source` of `server` into a raw 48 kHz stereo s16 file until stopped
    /// (`posix_spawn` and `waitpid`: Foundation's `Process` was seen to miss its exit here; the
    /// test runner's blocked signals are unblocked in the child, or SIGINT would not reach it).
    private final class MonitorRecording {
        let pid: pid_t
        let path: String

        init(server: String, source: String, into path: String) throws {
            self.path = path
            let arguments = [
                "/usr/bin/parec", "--server=\(server)", "--device=\(source)", "--format=s16le", "--rate=48000",
                "--channels=2", "--latency-msec=20", path,
            ]
            var argv = arguments.map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
            var pid: pid_t = 0
            let status = posix_spawn(&pid, arguments[0], nil, &attributes, &argv, environ)
            guard status == 0 else { throw Tool.Failed(description: "parec could not start: \(String(cString: strerror(status)))") }
            self.pid = pid
        }

        /// Stops `parec` (SIGINT, as Ctrl-C) and returns what it recorded, left and right interleaved.
        func stop() throws -> [Int16] {
            kill(pid, SIGINT)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        }
    }

    /// The loudest 100 ms of the left channel, RMS in dBFS, and how many 100 ms windows hold
    /// sound (RMS above −40 dBFS).
    private func loudness(_ samples: [Int16]) -> (loudest: Double, windowsWithSound: Int) {
        let window = 4_800
        var loudest = -160.0
        var withSound = 0
        var start = 0
        while start + window * 2 <= samples.count {
            var sum = 0.0
            for frame in 0..<window {
                let sample = Double(samples[start + frame * 2]) / 32_768
                sum += sample * sample
            }
            let rms = 10 * log10(max(sum / Double(window), 1e-16))
            loudest = max(loudest, rms)
            if rms > -40 { withSound += 1 }
            start += window * 2
        }
        return (loudest, withSound)
    }

    /// A second and a half of sines played to a sink by name reaches its monitor at the file's
    /// level, whole, in about its own length; the play head follows, no underrun.
    @Test func aFilePlaysToASinkByNameAndItsMonitorHearsIt() throws {
        let server = try PulseTestServer.require()
        let sink = try server.makeSink()
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("sines.wav", seconds: 1.5, peak: 0.5, format: .wav)
        let directory = try TemporaryDirectory(prefix: "voicememo-pulse-playback")
        let recording = try MonitorRecording(server: server.address, source: sink.monitor, into: directory.file("heard.raw"))
        usleep(300_000)
        let log = PlayerEventLog()
        let player = try player(file, sink: sink.name, server: server.address, log: log)
        try player.prepareToPlay()
        let started = ContinuousClock.now
        try player.play()
        #expect(waitUntil { player.currentTime >= 0.1 })
        let firstHeard = ContinuousClock.now
        #expect(log.waitForFinish(seconds: 10))
        let finished = ContinuousClock.now
        usleep(300_000)
        let heard = try recording.stop()
        let level = loudness(heard)
        print("PulsePlaybackTests: 1.5 s played in \(finished - firstHeard) after the first 0.1 s (\(firstHeard - started) to it); monitor: loudest \(level.loudest) dBFS, \(level.windowsWithSound) windows of 100 ms with sound; underruns \(player.underruns)")
        #expect(log.finishes == [true])
        #expect(log.errors.isEmpty, "\(log.errors)")
        // A sine of peak 0.5 is −9.03 dBFS RMS.
        #expect(abs(level.loudest - -9.03) < 1, "the monitor heard \(level.loudest) dBFS")
        #expect((14...16).contains(level.windowsWithSound), "1.5 s of sound: \(level.windowsWithSound) windows of 0.1 s")
        let playing = finished - firstHeard
        #expect(playing > .milliseconds(1250) && playing < .milliseconds(1900), "the last 1.4 s took \(playing)")
        #expect(player.underruns == 0)
    }

    /// Pausing holds the play head; resuming goes on from it and plays to the end.
    @Test func pauseHoldsThePlayHeadAndResumeGoesOnFromThere() throws {
        let server = try PulseTestServer.require()
        let sink = try server.makeSink()
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("two.wav", seconds: 2, peak: 0.5, format: .wav)
        let log = PlayerEventLog()
        let player = try player(file, sink: sink.name, server: server.address, log: log)
        try player.play()
        #expect(waitUntil { player.currentTime >= 0.5 })
        player.pause()
        #expect(!player.isPlaying)
        let pausedAt = player.currentTime
        usleep(400_000)
        #expect(player.currentTime == pausedAt, "the play head stands still while paused")
        #expect(pausedAt >= 0.5 && pausedAt < 0.9, "paused at \(pausedAt) s")
        try player.play()
        #expect(player.currentTime >= pausedAt, "resuming never goes back")
        #expect(waitUntil { player.currentTime > pausedAt + 0.2 })
        #expect(log.waitForFinish(seconds: 10))
        #expect(log.finishes == [true])
    }

    /// A sink the server does not have is refused when the device opens, naming the sinks it has.
    @Test func aSinkTheServerDoesNotHaveIsRefusedNamingItsSinks() throws {
        let server = try PulseTestServer.require()
        let sink = try server.makeSink()
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("one.wav", seconds: 1, peak: 0.5, format: .wav)
        let player = try player(file, sink: "no_such_sink", server: server.address, log: PlayerEventLog())
        #expect {
            try player.prepareToPlay()
        } throws: { error in
            guard let error = error as? PlayerError, error.kind == .device, case .pulse(let cause) = error.cause else { return false }
            return cause.kind == .noSuchSink && cause.available.contains(sink.name)
                && error.message.contains("no sink \"no_such_sink\"") && error.message.contains(sink.name)
        }
    }

    /// A sink removed while it plays ends playback with a message naming it; nothing hangs.
    @Test func aSinkRemovedWhileItPlaysEndsPlaybackNamingIt() throws {
        let server = try PulseTestServer.require()
        // The microphone's feed is a null sink of its own that `unplug()` unloads.
        let speakers = try PulseTestMicrophone(server: server.address, description: "USB Speakers")
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("long.wav", seconds: 10, peak: 0.5, format: .wav)
        let log = PlayerEventLog()
        let player = try player(file, sink: speakers.feed, server: server.address, log: log)
        try player.play()
        #expect(waitUntil { player.currentTime >= 0.3 })
        speakers.unplug()
        #expect(log.waitForFinish(seconds: 5))
        #expect(log.finishes == [false])
        let message = log.errors.first?.message ?? ""
        #expect(message.contains(speakers.feed) && message.contains("removed"), "\(log.errors)")
        player.stop()
    }

    /// A stalled server (SIGSTOP) cannot hold a stop: `stop()` returns within half a second.
    @Test func aStalledServerCannotHoldAStop() throws {
        let daemon = try PulsePrivateDaemon()
        let sink = try PulseTestSink.load(on: daemon.address)
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("long.wav", seconds: 10, peak: 0.5, format: .wav)
        let player = try player(file, sink: sink.name, server: daemon.address, log: PlayerEventLog())
        try player.play()
        #expect(waitUntil { player.currentTime >= 0.3 })
        daemon.suspend()
        defer { daemon.resume() }
        usleep(500_000)
        let stopping = ContinuousClock.now
        player.stop()
        let took = ContinuousClock.now - stopping
        #expect(took < .milliseconds(500), "stop took \(took)")
    }
}
