import Foundation
import Glibc
import TestSupport
import Testing

@testable import Audio

/// One test's real-time device: a private null sink on the suite's PulseAudio daemon
/// (`PulseTestServer`), reached through an ALSA device defined in a per-test configuration
/// file, so nothing in this process's environment changes. Playback on `device` goes into
/// the sink; capture comes from its monitor.
final class PulseServer {
    let configFile: String
    static let device = "voicememo_pulse"
    private let sink: PulseTestSink
    private let directory: URL

    /// Takes a sink of its own on the shared daemon.
    ///
    /// - Throws: `PulseTestServer.Unavailable` with the reason when there is no daemon.
    init() throws {
        sink = try PulseTestServer.require().makeSink()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-pulse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        configFile = directory.appendingPathComponent("pulse.conf").path
        try sink.alsaDefinitions(device: Self.device).write(toFile: configFile, atomically: true, encoding: .utf8)
    }

    /// Removes the configuration file; the sink goes with the value.
    func stop() {
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        stop()
    }
}

/// Real-time capture through PulseAudio's null sink monitor: the only paced
/// device on a machine without a sound card.
@Suite(.serialized)
struct ALSAPulseTests {
    @Test func oneSecondOfCaptureTakesAboutOneSecond() throws {
        let server = try PulseServer()
        defer { server.stop() }
        let source = try ALSACaptureSource(
            device: PulseServer.device, format: ALSATestDevices.stereo48k, configFile: server.configFile)
        defer { source.close() }
        #expect(source.format == ALSATestDevices.stereo48k)

        // The first read includes connecting to the stream; time from after it.
        _ = try captureAll(source, frames: 480)
        let start = ContinuousClock.now
        let captured = try captureAll(source, frames: 48_000)
        let elapsed = ContinuousClock.now - start
        #expect(captured.bytes.count == 48_000 * 4)
        #expect(elapsed > .milliseconds(900) && elapsed < .milliseconds(1500), "took \(elapsed)")
        // A null sink with nothing playing is silence.
        #expect(captured.bytes.allSatisfy { $0 == 0 })
    }

    @Test func stalledReaderIsBufferedByTheServerNotOverrun() throws {
        let server = try PulseServer()
        defer { server.stop() }
        let source = try ALSACaptureSource(
            device: PulseServer.device, format: ALSATestDevices.stereo48k, configFile: server.configFile)
        defer { source.close() }

        _ = try captureAll(source, frames: 4800)
        // Stall for three times the ALSA buffer (~200 ms). The pulse plugin does not
        // report an overrun: the server keeps the audio, and the next reads
        // return it at once, faster than real time.
        usleep(600_000)
        let start = ContinuousClock.now
        let reads = try captureAll(source, frames: 24_000).reads
        let elapsed = ContinuousClock.now - start
        #expect(reads.allSatisfy { $0.overruns == 0 && $0.lostFrames == 0 })
        #expect(elapsed < .milliseconds(400), "500 ms of buffered audio took \(elapsed)")
    }
}
