import Foundation
import Synchronization

/// A "microphone" of one test's own on a PulseAudio daemon, as a desktop has one: a null sink
/// (the feed, with a description) and a `module-remap-source` over its monitor (the source,
/// with a description). What is played into the feed (`paplay -d FEED`) is what the source
/// hears. Both modules are unloaded when the value is released, or by ``unplug()``.
public final class PulseTestMicrophone: Sendable {
    /// The daemon's address.
    public let server: String
    /// The feed sink's name (`paplay -d NAME`); its monitor is `NAME.monitor`.
    public let feed: String
    /// The remapped source's name (`--source pulse:NAME`).
    public let source: String
    /// The descriptions the server shows for the feed and for the source.
    public let feedDescription: String
    public let sourceDescription: String
    /// The modules still loaded, the source's first.
    private let modules: Mutex<[Int]>

    /// Loads the feed and the source on the daemon at `server`.
    ///
    /// - Parameters:
    ///   - server: The daemon's address (`PulseTestServer.address`, `PulsePrivateDaemon.address`).
    ///   - description: The source's description ("USB Headset Mono"); the feed's is
    ///     "Feed of" and it.
    /// - Throws: ``PulseTestServer/Unavailable`` when `pactl` fails, with its message.
    public init(server: String, description: String) throws {
        let tag = UUID().uuidString.prefix(8).lowercased()
        self.server = server
        feed = "vm_feed_\(tag)"
        source = "vm_mic_\(tag)"
        feedDescription = "Feed of \(description)"
        sourceDescription = description
        let sink = try Self.load(
            server, "module-null-sink", "sink_name=\(feed)", "rate=48000", "channels=2",
            "sink_properties='device.description=\"\(feedDescription)\"'")
        do {
            let remap = try Self.load(
                server, "module-remap-source", "master=\(feed).monitor", "source_name=\(source)",
                "source_properties='device.description=\"\(description)\"'")
            modules = Mutex([remap, sink])
        } catch {
            Self.unload(server, sink)
            throw error
        }
    }

    /// Unloads the source and the feed, as unplugging the microphone would.
    public func unplug() {
        let loaded = modules.withLock { loaded in
            defer { loaded = [] }
            return loaded
        }
        for module in loaded { Self.unload(server, module) }
    }

    /// The source on the shared daemon (``PulseTestServer/require()``).
    public convenience init(description: String) throws {
        try self.init(server: PulseTestServer.require().address, description: description)
    }

    deinit {
        unplug()
    }

    private static func load(_ server: String, _ module: String, _ arguments: String...) throws -> Int {
        try PulseCommand.loadModule(server, module, arguments)
    }

    private static func unload(_ server: String, _ module: Int) {
        PulseCommand.unloadModule(server, module)
    }
}
