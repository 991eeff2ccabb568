import Foundation
import TestSupport

extension VoiceMemoSandbox {
    /// The ALSA device name `usePipeWire()` and `usePipeWireSource()` define.
    static let pipeWireDevice = "vm_pw"

    /// A PipeWire daemon of the test's own and what the test uses on it; keep it alive for as
    /// long as the test uses it.
    struct PipeWireRoute<Node> {
        let daemon: PipeWirePrivateDaemon
        let node: Node
    }

    /// Gives the sandbox a real-time audio path through PipeWire: a daemon of its own with
    /// WirePlumber and a null sink, as ALSA device `vm_pw` (playback into the sink, `aplay -D
    /// vm_pw`; capture from its monitor) beside the stock `pipewire` device, and the socket as
    /// `$PIPEWIRE_SOCKET` for `pw-cli -r`. `PIPEWIRE_PROPS` lets the capture stream be linked
    /// to a sink's monitor (see ``PipeWireTestSink/captureStreamProperties``).
    ///
    /// - Throws: `PulseTestServer.Unavailable` saying why there is no PipeWire: the test fails.
    func usePipeWire() throws -> PipeWireRoute<PipeWireTestSink> {
        let daemon = try PipeWirePrivateDaemon(linking: true)
        let sink = try daemon.makeSink()
        try usePipeWire(definitions: sink.alsaDefinitions(device: Self.pipeWireDevice), daemon: daemon)
        environment["PIPEWIRE_PROPS"] = PipeWireTestSink.captureStreamProperties
        return PipeWireRoute(daemon: daemon, node: sink)
    }

    /// Makes the stock `pipewire` device (what a desktop user names: `--device pipewire`,
    /// `--source alsa:pipewire`) reach the route's daemon, by its runtime folder
    /// (`PIPEWIRE_RUNTIME_DIR`; the device's server is `pipewire-0` in it), and returns once
    /// the route's sink is the default one: the stock device then plays into that sink and, with
    /// `PIPEWIRE_PROPS` as `usePipeWire()` sets it, captures its monitor.
    func useStockPipeWireDevice(_ route: PipeWireRoute<PipeWireTestSink>) throws {
        environment["PIPEWIRE_RUNTIME_DIR"] = URL(fileURLWithPath: route.daemon.socket).deletingLastPathComponent().path
        try route.node.makeDefault()
    }

    /// As `usePipeWire()`, with a virtual microphone (an `Audio/Source` node whose volume
    /// changes what is captured) as `vm_pw`: `aplay -D vm_pw` feeds it.
    func usePipeWireSource() throws -> PipeWireRoute<PipeWireTestSource> {
        let daemon = try PipeWirePrivateDaemon(linking: true)
        let source = try daemon.makeSource()
        try usePipeWire(definitions: source.alsaDefinitions(device: Self.pipeWireDevice), daemon: daemon)
        return PipeWireRoute(daemon: daemon, node: source)
    }

    /// Points ALSA at PipeWire's plugins and at `definitions`, on top of the global configuration.
    func usePipeWire(definitions: String, daemon: PipeWirePrivateDaemon) throws {
        let path = file("pipewire-alsa.conf")
        try Data(definitions.utf8).write(to: URL(fileURLWithPath: path))
        environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:" + daemon.alsaConfig + ":" + path
        environment["PIPEWIRE_SOCKET"] = daemon.socket
    }
}
