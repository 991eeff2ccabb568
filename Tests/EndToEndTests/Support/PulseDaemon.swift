import Foundation
import Glibc
import TestSupport

/// A private PulseAudio daemon with a null sink (LINUX-AUDIO-NOTES.md): the only
/// real-time playback device on a machine without a sound card. ALSA reaches it as
/// device `vm_pulse` through `configFile`; `install(in:)` points a sandbox at it.
final class PulseDaemon {
    static let device = "vm_pulse"
    let directory: URL
    let configFile: String
    private let process = Process()

    /// Starts the daemon and waits up to 5 s for its socket; nil if it cannot start, and
    /// always in the unit tier (``TestTier``).
    init?() {
        guard !TestTier.isUnit else { return nil }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-e2e-pulse-\(UUID().uuidString)")
        configFile = directory.appendingPathComponent("alsa.conf").path
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

    /// Makes `vm_pulse` an ALSA device for what the sandbox runs (tmux sessions included:
    /// their server starts with the sandbox's environment).
    func install(in sandbox: VoiceMemoSandbox) {
        sandbox.environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:" + configFile
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

    /// Whether a daemon can be started here at all (tried once, then stopped). Always true in
    /// the unit tier, where `init` gives none: a test that needs one fails there (at its
    /// `#require`) instead of being skipped.
    static let isAvailable: Bool = {
        if TestTier.isUnit { return true }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio"), let daemon = PulseDaemon() else {
            return false
        }
        daemon.stop()
        return true
    }()
}
