import Foundation
import Glibc
import Testing

@testable import Audio

/// A private PulseAudio daemon with a null sink, reachable through an ALSA `pulse`
/// device defined in a per-test configuration file (`server` option), so nothing
/// in this process's environment changes.
final class PulseServer {
    let directory: URL
    let configFile: String
    static let device = "voicememo_pulse"
    private let process = Process()

    /// Starts the daemon and waits up to 5 s for its socket; nil if it cannot start.
    init?() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-pulse-\(UUID().uuidString)")
        configFile = directory.appendingPathComponent("pulse.conf").path
        let socket = directory.appendingPathComponent("native").path
        let home = directory.appendingPathComponent("home").path
        let runtime = directory.appendingPathComponent("run").path
        do {
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
            let script = """
                load-module module-null-sink sink_name=vsink rate=48000 channels=2
                load-module module-native-protocol-unix socket=\(socket) auth-anonymous=1
                set-default-sink vsink
                set-default-source vsink.monitor

                """
            let scriptPath = directory.appendingPathComponent("default.pa").path
            try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
            try "pcm.\(Self.device) { type pulse server \"unix:\(socket)\" }\n"
                .write(toFile: configFile, atomically: true, encoding: .utf8)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/pulseaudio")
            process.arguments = ["-n", "-F", scriptPath, "--daemonize=no", "--exit-idle-time=-1"]
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home
            environment["XDG_RUNTIME_DIR"] = runtime
            environment["PULSE_RUNTIME_PATH"] = runtime
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: directory)
            return nil
        }
        for _ in 0..<50 where !FileManager.default.fileExists(atPath: socket) {
            usleep(100_000)
        }
        guard FileManager.default.fileExists(atPath: socket), process.isRunning else {
            stop()
            return nil
        }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        stop()
    }

    /// Whether a daemon can be started here at all (tried once, then stopped).
    static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio"),
            let server = PulseServer()
        else { return false }
        server.stop()
        return true
    }()
}

/// Real-time capture through PulseAudio's null sink monitor: the only paced
/// device on a machine without a sound card.
@Suite(.serialized, .enabled(if: PulseServer.isAvailable, "pulseaudio cannot start here (needs /usr/bin/pulseaudio and libasound2-plugins)"))
struct ALSAPulseTests {
    @Test func oneSecondOfCaptureTakesAboutOneSecond() throws {
        let server = try #require(PulseServer())
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
        let server = try #require(PulseServer())
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
