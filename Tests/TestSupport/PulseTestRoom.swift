import Foundation
import Synchronization

/// A room of one test's own on a PulseAudio daemon, for echo: one 4-channel null sink (the
/// room's feed) and two `module-remap-source`s over its monitor, the microphone on its front
/// pair and the desktop on its rear pair. One `paplay -d FEED` of a 4-channel file (front: what
/// the microphone hears, rear: what the desktop plays) feeds both sides in one stream, so the
/// echo's delay and level in the microphone are the file's, to the frame. The modules are
/// unloaded when the value is released.
public final class PulseTestRoom: Sendable {
    /// The daemon's address.
    public let server: String
    /// The 4-channel feed sink (`paplay -d NAME` a file of front-left, front-right, rear-left,
    /// rear-right).
    public let feed: String
    /// The microphone: the feed's front pair, as a stereo source.
    public let microphone: String
    /// The desktop: the feed's rear pair, as a stereo source.
    public let desktop: String
    /// The modules still loaded, the sources' first.
    private let modules: Mutex<[Int]>

    /// Loads the feed and the two sources on the daemon at `server` (the suite's shared daemon
    /// when nil).
    ///
    /// - Throws: ``PulseTestServer/Unavailable`` when `pactl` fails, with its message.
    public init(server: String? = nil) throws {
        let server = try server ?? PulseTestServer.require().address
        let tag = UUID().uuidString.prefix(8).lowercased()
        self.server = server
        feed = "vm_room_\(tag)"
        microphone = "vm_room_mic_\(tag)"
        desktop = "vm_room_desk_\(tag)"
        var loaded: [Int] = []
        do {
            loaded.append(try Self.load(
                server, "module-null-sink", "sink_name=\(feed)", "rate=48000", "channels=4",
                "channel_map=front-left,front-right,rear-left,rear-right"))
            for (source, pair) in [(microphone, "front-left,front-right"), (desktop, "rear-left,rear-right")] {
                loaded.insert(try Self.load(
                    server, "module-remap-source", "master=\(feed).monitor", "source_name=\(source)",
                    "master_channel_map=\(pair)", "channel_map=front-left,front-right", "remix=no"), at: 0)
            }
        } catch {
            for module in loaded { Self.unload(server, module) }
            throw error
        }
        modules = Mutex(loaded)
    }

    deinit {
        for module in modules.withLock({ $0 }) { Self.unload(server, module) }
    }

    private static func load(_ server: String, _ module: String, _ arguments: String...) throws -> Int {
        try PulseCommand.loadModule(server, module, arguments)
    }

    private static func unload(_ server: String, _ module: Int) {
        PulseCommand.unloadModule(server, module)
    }
}
