import Foundation
import Glibc

/// The test suite's one private PulseAudio daemon with a null sink: the only real-time audio
/// device on a machine without a sound card.
///
/// `Tests/run-all.sh` starts it around `swift test` (with `Tests/pulse-daemon.sh`) and exports
/// its address in `VOICEMEMO_TEST_PULSE_SERVER`; a test process run without it (`swift test
/// --filter …`) starts one itself, once, with the same script, and the daemon stops when that
/// process ends. Tests that need real time call ``require()``, which throws the reason when no
/// daemon could be had: they fail, they are not skipped.
///
/// Each test takes a ``PulseTestSink`` of its own, so tests running in parallel on the one
/// daemon never hear each other.
public final class PulseTestServer: Sendable {
    /// The environment variable holding the daemon's address (`unix:/path/native`).
    public static let environmentVariable = "VOICEMEMO_TEST_PULSE_SERVER"

    /// The server address clients use (`PULSE_SERVER`, the ALSA pulse plugin's `server`).
    public let address: String

    /// Why no daemon is available.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    private init(address: String) {
        self.address = address
    }

    private static let shared: Result<PulseTestServer, Unavailable> = {
        let environment = ProcessInfo.processInfo.environment
        if let address = environment[environmentVariable], !address.isEmpty {
            let socket = address.hasPrefix("unix:") ? String(address.dropFirst("unix:".count)) : address
            guard FileManager.default.fileExists(atPath: socket) else {
                return .failure(Unavailable(description: "\(environmentVariable)=\(address), but there is no socket there"))
            }
            return .success(PulseTestServer(address: address))
        }
        return startOwnDaemon()
    }()

    /// The daemon, started on first use if `Tests/run-all.sh` did not start one.
    ///
    /// - Throws: ``Unavailable`` saying why (pulseaudio missing, did not start, and its log);
    ///   ``TestTier/Fenced`` in the unit tier.
    public static func require() throws -> PulseTestServer {
        try TestTier.requireEndToEnd(for: "the test PulseAudio daemon")
        return try shared.get()
    }

    private static func startOwnDaemon() -> Result<PulseTestServer, Unavailable> {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("pulse-daemon.sh")
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("voicememo-pulse-\(getpid())-\(UUID().uuidString.prefix(8))")
        let result = PulseCommand.run(
            "/bin/bash", [script.path, "start", directory.path, String(getpid())], timeout: 30)
        guard result.status == 0, let address = result.output.split(separator: "\n").last.map(String.init),
            address.hasPrefix("unix:")
        else {
            return .failure(Unavailable(
                description: "the test PulseAudio daemon could not be started: \(result.error)\(result.output)"))
        }
        return .success(PulseTestServer(address: address))
    }

    /// Loads a private null sink (48 kHz stereo) for one test; it is unloaded when released.
    ///
    /// - Throws: ``Unavailable`` when `pactl` fails, with its message.
    public func makeSink() throws -> PulseTestSink {
        try PulseTestSink.load(on: address)
    }
}

/// A null sink of one test's own on the shared daemon: what is played into it comes out of
/// its monitor, and nothing else does.
public final class PulseTestSink: Sendable {
    /// The daemon's address.
    public let server: String
    /// The sink's name (`paplay --device=NAME`); its monitor source is `NAME.monitor`.
    public let name: String
    private let module: Int

    init(server: String, name: String, module: Int) {
        self.server = server
        self.name = name
        self.module = module
    }

    /// Loads a private null sink (stereo at `rate`) on the daemon at `server`, or, given `slaves`,
    /// a combined sink (`module-combine-sink`) that plays what it is given into each of those
    /// sinks at once; it is unloaded when released.
    ///
    /// - Throws: ``PulseTestServer/Unavailable`` when `pactl` fails, with its message.
    public static func load(on server: String, rate: Int = 48000, combining slaves: [String]? = nil) throws -> PulseTestSink {
        let name = "vm_\(UUID().uuidString.prefix(8).lowercased())"
        let module = slaves == nil ? "module-null-sink" : "module-combine-sink"
        let arguments = slaves.map { ["slaves=" + $0.joined(separator: ",")] } ?? ["rate=\(rate)", "channels=2"]
        let index = try PulseCommand.loadModule(server, module, ["sink_name=\(name)"] + arguments)
        return PulseTestSink(server: server, name: name, module: index)
    }

    /// The monitor source, which hears everything played into the sink.
    public var monitor: String { "\(name).monitor" }

    /// An ALSA configuration defining `device`: playback goes into this sink, capture comes
    /// from its monitor (the pulse plugin through `asym`); its mixer (`ctl.DEVICE`) is the
    /// monitor's volume and mute as capture, the sink's as playback.
    public func alsaDefinitions(device: String) -> String {
        """
        pcm.\(device) {
            type asym
            playback.pcm { type pulse server "\(server)" device "\(name)" }
            capture.pcm { type pulse server "\(server)" device "\(monitor)" }
        }
        ctl.\(device) { type pulse server "\(server)" source "\(monitor)" sink "\(name)" }

        """
    }

    deinit {
        PulseCommand.unloadModule(server, module)
    }
}

/// Runs a short program (`pactl`, the daemon script) and collects its output.
///
/// `posix_spawn` and `waitpid` rather than Foundation's `Process`, whose exit monitoring was
/// seen to miss a child's exit when started from a static initializer inside the test runner.
enum PulseCommand {
    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    /// `pactl load-module MODULE ARGUMENTS…` on the daemon at `server`: the module's index.
    ///
    /// - Throws: ``PulseTestServer/Unavailable`` when `pactl` fails, with its message.
    static func loadModule(_ server: String, _ module: String, _ arguments: [String]) throws -> Int {
        let result = run("/usr/bin/pactl", ["--server=\(server)", "load-module", module] + arguments, timeout: 20)
        guard result.status == 0, let index = Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw PulseTestServer.Unavailable(description: "pactl load-module \(module) failed: \(result.error)\(result.output)")
        }
        return index
    }

    /// `pactl unload-module INDEX` on the daemon at `server`.
    static func unloadModule(_ server: String, _ index: Int) {
        _ = run("/usr/bin/pactl", ["--server=\(server)", "unload-module", String(index)], timeout: 20)
    }

    static func run(_ executable: String, _ arguments: [String], timeout: Double) -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vm-pulse-cmd-\(UUID().uuidString)")
        let outputPath = scratch.path + ".out"
        let errorPath = scratch.path + ".err"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        let child: pid_t
        do {
            child = try ChildSpawn.spawn(
                URL(fileURLWithPath: executable), arguments: arguments, environment: ProcessInfo.processInfo.environment,
                standardOutput: outputPath, standardError: errorPath)
        } catch {
            return Result(status: -1, output: "", error: "cannot run \(executable): \(error)")
        }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        while waitpid(child, &status, WNOHANG) == 0 {
            if Date() >= deadline {
                kill(child, SIGKILL)
                waitpid(child, &status, 0)
                return Result(status: -1, output: read(outputPath), error: "\(executable) timed out after \(timeout) s; " + read(errorPath))
            }
            usleep(10_000)
        }
        let exited = (status & 0x7F) == 0
        return Result(status: exited ? (status >> 8) & 0xFF : -1, output: read(outputPath), error: read(errorPath))
    }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}

/// A PulseAudio daemon of one test's own (same script, same null sink `vsink`, whose monitor is
/// the default source), for tests that do to the server what would disturb everyone else on the
/// shared one: stopping it with SIGSTOP to stall every stream it serves.
///
/// It is resumed and stopped when released, and also stops when the test process ends.
public final class PulsePrivateDaemon: Sendable {
    /// The server address clients use (`PULSE_SERVER`).
    public let address: String
    /// The daemon's process id.
    public let pid: pid_t
    private let directory: String

    /// Starts a daemon; it is up (its socket exists) when this returns.
    ///
    /// - Throws: ``PulseTestServer/Unavailable`` with the script's message; ``TestTier/Fenced``
    ///   in the unit tier.
    public init() throws {
        try TestTier.requireEndToEnd(for: "a private PulseAudio daemon")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("pulse-daemon.sh")
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("voicememo-pulse-private-\(getpid())-\(UUID().uuidString.prefix(8))").path
        let result = PulseCommand.run("/bin/bash", [script.path, "start", directory, String(getpid())], timeout: 30)
        guard result.status == 0, let address = result.output.split(separator: "\n").last.map(String.init),
            address.hasPrefix("unix:"),
            let pidText = try? String(contentsOfFile: directory + "/pid", encoding: .utf8),
            let pid = pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw PulseTestServer.Unavailable(
                description: "a private PulseAudio daemon could not be started: \(result.error)\(result.output)")
        }
        self.address = address
        self.pid = pid
    }

    /// Stalls the server (SIGSTOP): every stream it serves stops delivering and consuming.
    public func suspend() {
        kill(pid, SIGSTOP)
    }

    /// Lets a suspended server run again (SIGCONT).
    public func resume() {
        kill(pid, SIGCONT)
    }

    /// An ALSA configuration defining `device` as this server's default sink and source.
    public func alsaDefinitions(device: String) -> String {
        "pcm.\(device) { type pulse server \"\(address)\" }\n"
    }

    deinit {
        kill(pid, SIGCONT)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("pulse-daemon.sh")
        _ = PulseCommand.run("/bin/bash", [script.path, "stop", directory], timeout: 20)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
