import Dispatch
import Foundation
import Glibc
import Metering
import TestSupport
import SoundFiles
import Synchronization
import Testing

@testable import Audio

/// A clock the test steps by hand, for `CaptureEngine(source:clock:)`.
final class SteppedClock: Sendable {
    private let now = Atomic<Int>(0)

    var clock: MonotonicClock { MonotonicClock { [self] in now.load(ordering: .acquiring) } }

    func advance(seconds: Double) {
        now.add(Int(seconds * 1e9), ordering: .releasing)
    }
}

/// A PulseAudio daemon of the test's own (`PulsePrivateDaemon`), reached as ALSA device
/// `voicememo_stall`, which the test stalls with SIGSTOP: the shared daemon must not be.
final class StallableServer {
    static let device = "voicememo_stall"
    let daemon: PulsePrivateDaemon
    let configFile: String

    init() throws {
        daemon = try PulsePrivateDaemon()
        configFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("voicememo-stall-\(UUID().uuidString).conf").path
        try daemon.alsaDefinitions(device: Self.device).write(toFile: configFile, atomically: true, encoding: .utf8)
    }

    deinit {
        daemon.resume()
        unlink(configFile)
    }
}

/// Waits until `value` has not changed for `quiet` seconds (a stalled stream has delivered its
/// last buffered frames), at most `seconds`.
func waitUntilUnchanged(for quiet: Double, seconds: Double = 10, _ value: () -> Double) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    var last = value()
    var since = ContinuousClock.now
    while ContinuousClock.now < deadline {
        usleep(10_000)
        let current = value()
        if current != last {
            last = current
            since = ContinuousClock.now
        } else if ContinuousClock.now - since >= .milliseconds(Int(quiet * 1000)) {
            return true
        }
    }
    return false
}

/// An input that stops delivering — a SIGSTOPped PulseAudio server — is reported after 2 s
/// (on a stepped clock) and never holds up a stop; nor does an output that stops consuming.
@Suite(.serialized)
struct InputStallTests {
    @Test func aStoppedServerIsReportedAfterTwoSecondsAndNeverHoldsUpTheStop() throws {
        let server = try StallableServer()
        let time = SteppedClock()
        let source = try ALSACaptureSource(
            device: StallableServer.device, format: ALSATestDevices.stereo48k, configFile: server.configFile)
        let engine = CaptureEngine(source: source, clock: time.clock)
        #expect(engine.secondsWithoutAudio == 0, "not started: not stalled")
        engine.start()
        #expect(waitUntil { engine.capturedFrames > 4_800 }, "the stream delivers")

        // While audio flows every frame sets the time of the last one: ten seconds on the
        // clock are no stall once the next frame is in.
        time.advance(seconds: 10)
        #expect(waitUntil { engine.secondsWithoutAudio == 0 })
        #expect(!engine.isStalled)

        server.daemon.suspend()
        #expect(waitUntilUnchanged(for: 0.6) { Double(engine.capturedFrames) }, "the stream stops delivering")
        time.advance(seconds: 1.9)
        #expect(abs(engine.secondsWithoutAudio - 1.9) < 1e-9)
        #expect(!engine.isStalled)
        time.advance(seconds: 0.1)
        #expect(abs(engine.secondsWithoutAudio - 2.0) < 1e-9)
        #expect(engine.isStalled, "2 s without a frame")

        // Audio comes back: the stall clears with the first frame, capture goes on.
        let before = engine.capturedFrames
        server.daemon.resume()
        #expect(waitUntil { !engine.isStalled && engine.capturedFrames > before + 4_800 })

        // Stalled again, the stop still returns at once: the capture thread waits 100 ms at a
        // time, and closing the PCM (which waits for the server) goes on in the background.
        server.daemon.suspend()
        #expect(waitUntilUnchanged(for: 0.6) { Double(engine.capturedFrames) })
        let stopping = ContinuousClock.now
        engine.stop()
        let stopped = ContinuousClock.now - stopping
        print("InputStallTests: stop with the server stopped took \(stopped)")
        #expect(stopped < .seconds(1), "took \(stopped)")
        #expect(engine.hasEnded)
        #expect(engine.error == nil, "a stall is not a failure")
        #expect(engine.secondsWithoutAudio == 0, "a stopped input is not stalled")
    }

    /// Stalled before the stream starts: the first read starts it, and the pulse plugin's start
    /// waits for the server without a timeout (`pulse_start`, up to 30 s), so the capture
    /// thread is stuck inside alsa-lib. The stop leaves it there and returns; the thread
    /// closes the device itself once alsa-lib lets it go.
    @Test func aServerStoppedBeforeTheStreamStartsNeverHoldsUpTheStop() throws {
        let server = try StallableServer()
        let source = try ALSACaptureSource(
            device: StallableServer.device, format: ALSATestDevices.stereo48k, configFile: server.configFile)
        let time = SteppedClock()
        let engine = CaptureEngine(source: source, clock: time.clock)
        server.daemon.suspend()
        engine.start()
        time.advance(seconds: 2)
        #expect(engine.isStalled, "nothing ever arrived")
        let stopping = ContinuousClock.now
        engine.stop()
        let stopped = ContinuousClock.now - stopping
        print("InputStallTests: stop of a stream that never started took \(stopped)")
        #expect(stopped < .seconds(1), "took \(stopped)")
        #expect(engine.hasEnded)
        #expect(engine.capturedFrames == 0)
    }

    @Test func anInputThatEndedOrNeverStartedIsNotStalled() throws {
        let time = SteppedClock()
        let tone = try ToneSource(frequency: 440, peakDBFS: -6, format: ALSATestDevices.stereo48k, paced: false)
        let engine = CaptureEngine(source: tone, clock: time.clock)
        time.advance(seconds: 60)
        #expect(engine.secondsWithoutAudio == 0 && !engine.isStalled, "never started")
        engine.start(frameLimit: 4_800)
        #expect(waitUntil { engine.hasEnded })
        time.advance(seconds: 60)
        #expect(engine.secondsWithoutAudio == 0 && !engine.isStalled, "a source that ran out is over, not stalled")
        engine.stop()
        #expect(engine.secondsWithoutAudio == 0)
    }

    @Test func aClockThatGoesBackIsNoNegativeTime() throws {
        let time = SteppedClock()
        time.advance(seconds: 100)
        let server = try StallableServer()
        let source = try ALSACaptureSource(
            device: StallableServer.device, format: ALSATestDevices.stereo48k, configFile: server.configFile)
        let engine = CaptureEngine(source: source, clock: time.clock)
        engine.start()
        defer { engine.stop() }
        server.daemon.suspend()
        time.advance(seconds: -50)
        #expect(engine.secondsWithoutAudio == 0)
        #expect(!engine.isStalled)
    }

    @Test func playbackStopsAtOnceWhenTheServerStopsConsuming() throws {
        let server = try StallableServer()
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("ten.wav", seconds: 10, peak: 0.5, format: .wav)
        let log = PlayerEventLog()
        let player = try Player(
            url: file, device: StallableServer.device, configFile: server.configFile,
            eventQueue: DispatchQueue(label: "stall-player-events"), events: log.events)
        try player.prepareToPlay()
        try player.play()
        #expect(waitUntil { player.currentTime >= 0.2 }, "playback started")
        server.daemon.suspend()
        #expect(waitUntilUnchanged(for: 0.6) { player.currentTime }, "the server stopped consuming")
        let stopping = ContinuousClock.now
        player.stop()
        let stopped = ContinuousClock.now - stopping
        print("InputStallTests: player stop with the server stopped took \(stopped), at \(player.currentTime) s")
        #expect(stopped < .seconds(1), "took \(stopped)")
        #expect(!player.isPlaying)
        #expect(log.finishes.isEmpty, "a stop sends no event")
    }

    /// Stalled before the first write: the write starts the stream, which the pulse plugin
    /// does by waiting for the server (`pulse_start`, no timeout). The stop leaves the thread.
    @Test func playbackOfAServerStoppedBeforeTheStartStopsAtOnce() throws {
        let server = try StallableServer()
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("two.wav", seconds: 2, peak: 0.5, format: .wav)
        let log = PlayerEventLog()
        let player = try Player(
            url: file, device: StallableServer.device, configFile: server.configFile,
            eventQueue: DispatchQueue(label: "stall-player-events"), events: log.events)
        try player.prepareToPlay()
        server.daemon.suspend()
        try player.play()
        let stopping = ContinuousClock.now
        player.stop()
        let stopped = ContinuousClock.now - stopping
        print("InputStallTests: player stop of a stream that never started took \(stopped)")
        #expect(stopped < .seconds(1), "took \(stopped)")
        #expect(!player.isPlaying)
        #expect(log.finishes.isEmpty)
    }
}
