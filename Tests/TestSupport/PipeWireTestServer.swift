import Foundation
import Glibc

/// PipeWire for the tests: a daemon of each test's own (``PipeWirePrivateDaemon``), with
/// WirePlumber linking streams or without it (the stalled server), reached through PipeWire's
/// own ALSA plugins, unpacked (not installed) by `Tests/pipewire-alsa.sh`. `Tests/run-all.sh`
/// exports the plugins' ALSA configuration in `VOICEMEMO_TEST_PIPEWIRE_ALSA_CONFIG`; a test
/// process run without it makes it with the same script. When a daemon cannot be had, the
/// tests that need it fail with the reason: they are not skipped.
///
/// A daemon per test rather than one for the suite: a test that ends (its sink removed, its
/// clients killed) then never disturbs another's streams, and 0.8 s is what a start costs.
/// A null sink of one test's own: what is played into it comes out of its monitor, unchanged
/// (PipeWire converts 16-bit samples to float and back exactly).
public final class PipeWireTestSink: Sendable {
    /// Stream properties (for `PIPEWIRE_PROPS`) without which WirePlumber links a capture
    /// stream aimed at a sink to the default source instead: two tests would then record the
    /// same sink, whichever became the default.
    public static let captureStreamProperties = "{ stream.capture.sink=true }"

    /// The daemon's socket.
    public let socket: String
    /// The sink's node name; a capture stream aimed at it records its monitor.
    public let name: String

    init(socket: String, name: String) throws {
        self.socket = socket
        self.name = name
        let properties = "{ factory.name=support.null-audio-sink node.name=\(name) media.class=Audio/Sink "
            + "object.linger=1 audio.position=[FL FR] audio.rate=48000 }"
        let result = PulseCommand.run("/usr/bin/pw-cli", ["-r", socket, "create-node", "adapter", properties], timeout: 20)
        let listed = PulseCommand.run("/usr/bin/pw-cli", ["-r", socket, "ls", "Node"], timeout: 20)
        guard result.status == 0, listed.output.contains("node.name = \"\(name)\"") else {
            throw PulseTestServer.Unavailable(
                description: "pw-cli create-node (a null sink) failed: \(result.error)\(result.output)")
        }
    }

    /// An ALSA configuration defining `device` on this sink: playback goes into it, capture
    /// comes from its monitor; its control (`ctl.DEVICE`) is the sink node's volume and mute
    /// (which a null sink's monitor does not apply: ``PipeWireTestSource`` is the source whose
    /// volume changes the audio).
    public func alsaDefinitions(device: String) -> String {
        """
        pcm.\(device) { type pipewire server "\(socket)" playback_node "\(name)" capture_node "\(name)" }
        ctl.\(device) { type pipewire server "\(socket)" source "\(name)" sink "\(name)" }

        """
    }

    /// Makes this sink the default one (`default.configured.audio.sink`) and returns once
    /// WirePlumber has made it so (`default.audio.sink`): the stock `pipewire` device plays into
    /// the default sink, and a capture through it with ``captureStreamProperties`` records that
    /// sink's monitor.
    ///
    /// - Throws: ``PulseTestServer/Unavailable`` when it is not the default within 10 s.
    public func makeDefault() throws {
        try PipeWireDefaults.make(name, "sink", socket: socket)
    }

    deinit {
        _ = PulseCommand.run("/usr/bin/pw-cli", ["-r", socket, "destroy", name], timeout: 20)
    }
}

/// A virtual microphone of one test's own: `pw-loopback` makes an `Audio/Source` node `name`
/// that plays what is played into the sink `name_in`. Its volume (`channelVolumes`, set
/// through the control plugin as the cube of the fraction) scales what is captured from it.
public final class PipeWireTestSource: Sendable {
    /// The daemon's socket.
    public let socket: String
    /// The source's node name.
    public let name: String
    /// The sink that feeds it.
    public var sinkName: String { name + "_in" }
    private let directory: String

    init(socket: String, directory: String, name: String) throws {
        self.socket = socket
        self.directory = directory
        self.name = name
        let result = PulseCommand.run("/bin/bash", [PipeWireScripts.daemonScript, "source", directory, name], timeout: 30)
        guard result.status == 0 else {
            throw PulseTestServer.Unavailable(description: "a PipeWire loopback source could not be made: \(result.error)\(result.output)")
        }
    }

    /// An ALSA configuration defining `device`: capture from the source, playback into the
    /// sink that feeds it, and the source's volume and mute as the capture control.
    public func alsaDefinitions(device: String) -> String {
        """
        pcm.\(device) {
            type asym
            playback.pcm { type pipewire server "\(socket)" playback_node "\(sinkName)" }
            capture.pcm { type pipewire server "\(socket)" capture_node "\(name)" }
        }
        ctl.\(device) { type pipewire server "\(socket)" source "\(name)" sink "\(sinkName)" }

        """
    }

    /// Makes this source the default one, as ``PipeWireTestSink/makeDefault()`` does for a
    /// sink: a capture through the stock `pipewire` device without
    /// ``PipeWireTestSink/captureStreamProperties`` records it.
    public func makeDefault() throws {
        try PipeWireDefaults.make(name, "source", socket: socket)
    }

    /// The source node's volume (linear, per channel) and mute as the server reports them.
    public func state() -> (volumes: [Double], muted: Bool)? {
        let dump = PulseCommand.run("/usr/bin/pw-dump", ["-r", socket, name], timeout: 20)
        guard dump.status == 0,
            let nodes = try? JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [[String: Any]],
            let node = nodes.first(where: { (($0["info"] as? [String: Any])?["props"] as? [String: Any])?["node.name"] as? String == name }),
            let params = (node["info"] as? [String: Any])?["params"] as? [String: Any],
            let props = (params["Props"] as? [[String: Any]])?.first(where: { $0["channelVolumes"] != nil }),
            let volumes = props["channelVolumes"] as? [Double], let muted = props["mute"] as? Bool
        else { return nil }
        return (volumes, muted)
    }

    deinit {
        _ = PulseCommand.run("/bin/bash", [PipeWireScripts.daemonScript, "unsource", directory, name], timeout: 20)
    }
}

/// A PipeWire daemon of one test's own. Without a session manager (`linking: false`) it is
/// the stalled server: a stream connects and is never
/// linked, so it gets no audio, and nothing tells the client why.
///
/// It stops when released, and also when the test process ends.
public final class PipeWirePrivateDaemon: Sendable {
    /// The environment variable holding the path of the plugins' ALSA configuration.
    public static let alsaConfigVariable = "VOICEMEMO_TEST_PIPEWIRE_ALSA_CONFIG"
    /// The daemon's socket.
    public let socket: String
    /// The ALSA configuration that loads PipeWire's plugins and defines the stock `pipewire`
    /// PCM and control; list it after `/usr/share/alsa/alsa.conf` in `ALSA_CONFIG_PATH`.
    public let alsaConfig: String
    private let directory: String

    /// Starts a daemon; it answers on its socket when this returns.
    ///
    /// - Throws: ``PulseTestServer/Unavailable`` with the script's message; ``TestTier/Fenced``
    ///   in the unit tier.
    public init(linking: Bool) throws {
        try TestTier.requireEndToEnd(for: "a private PipeWire daemon")
        alsaConfig = try PipeWireScripts.alsaConfig().get()
        let started = try PipeWireScripts.startDaemon(named: "voicememo-pipewire", linking: linking).get()
        socket = started.socket
        directory = started.directory
    }

    /// Starts PipeWire's PulseAudio server on this daemon (as Debian's pipewire-pulse does,
    /// from `Tests/pipewire-daemon.sh pulse`) and returns its address (`unix:…/pulse-native`),
    /// for `PULSE_SERVER` and ``PulseTestMicrophone/init(server:description:)``; it stops with
    /// the daemon.
    ///
    /// - Throws: ``PulseTestServer/Unavailable`` with the script's message.
    public func startPulseServer() throws -> String {
        let result = PulseCommand.run("/bin/bash", [PipeWireScripts.daemonScript, "pulse", directory], timeout: 30)
        guard result.status == 0, let address = result.output.split(separator: "\n").last.map(String.init), address.hasPrefix("unix:")
        else {
            throw PulseTestServer.Unavailable(description: "PipeWire's PulseAudio server did not start: \(result.error)\(result.output)")
        }
        return address
    }

    /// Makes a null sink (48 kHz stereo) of one test's own; it is removed when released.
    ///
    /// - Throws: ``PulseTestServer/Unavailable`` when `pw-cli` fails, with its message.
    public func makeSink() throws -> PipeWireTestSink {
        try PipeWireTestSink(socket: socket, name: "vm_\(UUID().uuidString.prefix(8).lowercased())")
    }

    /// Makes a virtual source (`pw-loopback`): an `Audio/Source` node whose volume and mute
    /// change what is captured from it, fed by a sink; it stops when released.
    ///
    /// - Throws: ``PulseTestServer/Unavailable`` when it does not appear, with the reason.
    public func makeSource() throws -> PipeWireTestSource {
        try PipeWireTestSource(socket: socket, directory: directory, name: "vm_\(UUID().uuidString.prefix(8).lowercased())")
    }

    deinit {
        _ = PulseCommand.run("/bin/bash", [PipeWireScripts.daemonScript, "stop", directory], timeout: 20)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// WirePlumber's choice of the default sink and source, in the `default` metadata.
enum PipeWireDefaults {
    /// Sets `default.configured.audio.KIND` to `name` and waits (≤ 10 s) until WirePlumber has
    /// followed it in `default.audio.KIND`.
    static func make(_ name: String, _ kind: String, socket: String) throws {
        let value = "{ \"name\": \"\(name)\" }"
        let set = PulseCommand.run(
            "/usr/bin/pw-metadata", ["-r", socket, "0", "default.configured.audio.\(kind)", value, "Spa:String:JSON"], timeout: 10)
        guard set.status == 0 else {
            throw PulseTestServer.Unavailable(description: "pw-metadata could not set the default \(kind): \(set.error)\(set.output)")
        }
        let deadline = Date().addingTimeInterval(10)
        var last = set
        repeat {
            last = PulseCommand.run("/usr/bin/pw-metadata", ["-r", socket, "0", "default.audio.\(kind)"], timeout: 10)
            if last.status == 0, last.output.contains("\"name\":\"\(name)\"") { return }
            usleep(50_000)
        } while Date() < deadline
        throw PulseTestServer.Unavailable(
            description: "\(name) did not become the default \(kind) within 10 s: \(last.error)\(last.output)")
    }
}

/// The two scripts: `Tests/pipewire-alsa.sh` (the plugins) and `Tests/pipewire-daemon.sh`.
enum PipeWireScripts {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let daemonScript = testsFolder.appendingPathComponent("pipewire-daemon.sh").path

    /// The plugins' ALSA configuration: `VOICEMEMO_TEST_PIPEWIRE_ALSA_CONFIG`, else what
    /// `Tests/pipewire-alsa.sh` makes in the package's `.build/pipewire-alsa` (as `make` does).
    static func alsaConfig() -> Result<String, PulseTestServer.Unavailable> {
        if let path = ProcessInfo.processInfo.environment[PipeWirePrivateDaemon.alsaConfigVariable], !path.isEmpty {
            return FileManager.default.fileExists(atPath: path)
                ? .success(path)
                : .failure(PulseTestServer.Unavailable(description: "\(PipeWirePrivateDaemon.alsaConfigVariable)=\(path), but there is no file there"))
        }
        let folder = testsFolder.deletingLastPathComponent().appendingPathComponent(".build/pipewire-alsa").path
        let result = PulseCommand.run(
            "/bin/bash", [testsFolder.appendingPathComponent("pipewire-alsa.sh").path, folder], timeout: 120)
        guard result.status == 0, let path = result.output.split(separator: "\n").last.map(String.init) else {
            return .failure(PulseTestServer.Unavailable(
                description: "PipeWire's ALSA plugins could not be had (make pipewire-alsa): \(result.error)\(result.output)"))
        }
        return .success(path)
    }

    /// Starts a daemon in a new temporary folder; it stops when this process ends.
    static func startDaemon(named prefix: String, linking: Bool) -> Result<(socket: String, directory: String), PulseTestServer.Unavailable> {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(getpid())-\(UUID().uuidString.prefix(8))").path
        let result = PulseCommand.run(
            "/bin/bash", [daemonScript, linking ? "start" : "start-bare", directory, String(getpid())], timeout: 30)
        guard result.status == 0, let socket = result.output.split(separator: "\n").last.map(String.init), socket.hasPrefix("/")
        else {
            return .failure(PulseTestServer.Unavailable(
                description: "a PipeWire daemon could not be started: \(result.error)\(result.output)"))
        }
        return .success((socket, directory))
    }
}
