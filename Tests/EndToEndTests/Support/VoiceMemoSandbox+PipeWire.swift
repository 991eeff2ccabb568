import Foundation
import PulseTestSupport

extension VoiceMemoSandbox {
    /// The ALSA device name `usePipeWire()` and `usePipeWireSource()` define.
    static let pipeWireDevice = "vm_pw"

    /// Gives the sandbox a real-time audio path of its own through PipeWire: a null sink of its
    /// own on the suite's PipeWire, as ALSA device `vm_pw` (playback into the sink — `aplay -D
    /// vm_pw` — capture from its monitor) beside the stock `pipewire` device, and its socket
    /// as `$PIPEWIRE_SOCKET` for `pw-cli -r`.
    ///
    /// Keep the returned sink alive for as long as the test uses it.
    /// - Throws: `PulseTestServer.Unavailable` saying why there is no PipeWire: the test fails.
    func usePipeWire() throws -> PipeWireTestSink {
        let server = try PipeWireTestServer.require()
        let sink = try server.makeSink()
        try usePipeWire(definitions: sink.alsaDefinitions(device: Self.pipeWireDevice), alsaConfig: server.alsaConfig, socket: server.socket)
        return sink
    }

    /// As `usePipeWire()`, with a virtual microphone (an `Audio/Source` node whose volume
    /// changes what is captured) as `vm_pw`: `aplay -D vm_pw` feeds it.
    func usePipeWireSource() throws -> PipeWireTestSource {
        let server = try PipeWireTestServer.require()
        let source = try server.makeSource()
        try usePipeWire(definitions: source.alsaDefinitions(device: Self.pipeWireDevice), alsaConfig: server.alsaConfig, socket: server.socket)
        return source
    }

    /// Points ALSA at PipeWire's plugins and at `definitions`, on top of the global configuration.
    func usePipeWire(definitions: String, alsaConfig: String, socket: String) throws {
        let path = file("pipewire-alsa.conf")
        try Data(definitions.utf8).write(to: URL(fileURLWithPath: path))
        environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:" + alsaConfig + ":" + path
        environment["PIPEWIRE_SOCKET"] = socket
    }
}
