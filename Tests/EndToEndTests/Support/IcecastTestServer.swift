import TestSupport
import Foundation
import Glibc

/// A real Icecast 2.4 server (Debian's `icecast2`, a `make deps` package) on 127.0.0.1, started
/// for a test with a configuration of its own (LINUX-AUDIO-NOTES.md, "A real Icecast server"),
/// and its mounts fed by `ffmpeg -re` as a radio's source client feeds them. Everything it
/// started is stopped when it is released.
///
/// Icecast refuses to run as root, so it runs as the package's `icecast2` user (`runuser`): the
/// tests that use it need root, as the other daemons' tests do.
final class IcecastTestServer {
    let port: Int
    let directory: URL
    private let process = Process()
    private var feeders: [Process] = []
    private static let sourcePassword = "vm-source"
    private static let adminPassword = "vm-admin"

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether an Icecast server can be started here: the package, `runuser` and root.
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/icecast2")
            && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") && getuid() == 0
            && getpwnam("icecast2") != nil
    }

    /// Starts the server on a free loopback port and waits (at most 10 s) until it accepts.
    init() throws {
        directory = URL(fileURLWithPath: "/tmp/voicememo-e2e-icecast-\(UUID().uuidString)")
        let logs = directory.appendingPathComponent("log")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        // The server reads its configuration and writes its logs as icecast2.
        chmod(directory.path, 0o755)
        guard let user = getpwnam("icecast2") else { throw StartFailure(description: "no icecast2 user") }
        chown(logs.path, user.pointee.pw_uid, user.pointee.pw_gid)
        port = try Self.freePort()
        let configuration = directory.appendingPathComponent("icecast.xml")
        try Self.configuration(port: port, logs: logs.path).write(to: configuration, atomically: true, encoding: .utf8)
        chmod(configuration.path, 0o644)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        process.arguments = ["-u", "icecast2", "--", "/usr/bin/icecast2", "-c", configuration.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !Self.accepts(port: port) {
            guard Date() < deadline, process.isRunning else {
                stop()
                throw StartFailure(description: "icecast2 did not accept connections on 127.0.0.1:\(port) within 10 s")
            }
            usleep(50_000)
        }
    }

    deinit {
        stop()
    }

    /// Feeds `file` to `/MOUNT` in real time, looped (`ffmpeg -re -stream_loop -1 -c copy`),
    /// and waits (at most 20 s) until the mount has run for `seconds`, so its burst holds that
    /// much audio as a radio's does (a listener is sent the last 64 KiB at once).
    func feed(
        _ file: String, mount: String, muxer: String, contentType: String, name: String, running seconds: Int = 3
    ) throws {
        let feeder = Process()
        feeder.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        feeder.arguments = [
            "-nostdin", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", file, "-c", "copy", "-f", muxer,
            "-content_type", contentType, "-ice_name", name,
            "icecast://source:\(Self.sourcePassword)@127.0.0.1:\(port)/\(mount)",
        ]
        feeder.standardOutput = FileHandle.nullDevice
        feeder.standardError = FileHandle.nullDevice
        try feeder.run()
        feeders.append(feeder)
        let deadline = Date().addingTimeInterval(20)
        while (connectedSeconds(mount: mount) ?? -1) < seconds {
            guard Date() < deadline, feeder.isRunning else {
                throw StartFailure(description: "/\(mount) was not on air for \(seconds) s within 20 s (the feeder \(feeder.isRunning ? "runs" : "ended"))")
            }
            usleep(200_000)
        }
    }

    /// `http://127.0.0.1:PORT/MOUNT`.
    func url(_ mount: String) -> String { "http://127.0.0.1:\(port)/\(mount)" }

    /// How long `/MOUNT` has had a source, from the server's own `admin/listmounts`; nil if not mounted.
    func connectedSeconds(mount: String) -> Int? {
        guard let curl = try? Tool.run(
            "/usr/bin/curl", ["-s", "--max-time", "2", "-u", "admin:\(Self.adminPassword)", "http://127.0.0.1:\(port)/admin/listmounts"])
        else { return nil }
        let text = curl.text
        guard let source = text.range(of: "<source mount=\"/\(mount)\">"),
            let open = text.range(of: "<Connected>", range: source.upperBound..<text.endIndex),
            let close = text.range(of: "</Connected>", range: open.upperBound..<text.endIndex)
        else { return nil }
        return Int(text[open.upperBound..<close.lowerBound])
    }

    private func stop() {
        // ffmpeg feeding a mount does not always end on SIGTERM (seen: still running 15 min
        // later): a source that vanishes is what the server must cope with anyway.
        for feeder in feeders { Self.end(feeder, signal: SIGKILL) }
        feeders = []
        // runuser passes SIGTERM on to icecast2, then exits (after about 2 s).
        Self.end(process, signal: SIGTERM)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Sends `signal`, waits up to 5 s for the process to end, then SIGKILLs it and reaps it.
    private static func end(_ process: Process, signal: Int32) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private static func configuration(port: Int, logs: String) -> String {
        """
        <icecast>
            <location>VoiceMemo tests</location>
            <admin>tests@localhost</admin>
            <limits>
                <clients>20</clients>
                <sources>8</sources>
                <queue-size>524288</queue-size>
                <client-timeout>30</client-timeout>
                <header-timeout>15</header-timeout>
                <source-timeout>10</source-timeout>
                <burst-on-connect>1</burst-on-connect>
                <burst-size>65535</burst-size>
            </limits>
            <authentication>
                <source-password>\(sourcePassword)</source-password>
                <relay-password>\(sourcePassword)</relay-password>
                <admin-user>admin</admin-user>
                <admin-password>\(adminPassword)</admin-password>
            </authentication>
            <hostname>127.0.0.1</hostname>
            <listen-socket>
                <port>\(port)</port>
                <bind-address>127.0.0.1</bind-address>
            </listen-socket>
            <fileserve>1</fileserve>
            <paths>
                <basedir>/usr/share/icecast2</basedir>
                <logdir>\(logs)</logdir>
                <webroot>/usr/share/icecast2/web</webroot>
                <adminroot>/usr/share/icecast2/admin</adminroot>
            </paths>
            <logging>
                <accesslog>access.log</accesslog>
                <errorlog>error.log</errorlog>
                <loglevel>2</loglevel>
            </logging>
            <security>
                <chroot>0</chroot>
            </security>
        </icecast>

        """
    }

    /// A port nothing listens on: the kernel's pick for a socket bound to port 0.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw StartFailure(description: "socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw StartFailure(description: "bind: errno \(errno)") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw StartFailure(description: "getsockname: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// What a plain listener sees of `/MOUNT`, the peer the product's start is measured against:
    /// the Unix times it connected, got the reply's headers, and got the first byte of audio.
    struct ListenerTimes: Sendable {
        var connected: Double
        var headers: Double
        var firstAudio: Double
    }

    /// Listens to `/MOUNT` as the simplest client does (a socket, `GET`, read), for as long as it
    /// takes to get the first byte after the headers; `nil` if that took over 10 s or failed.
    static func plainListener(port: Int, mount: String) -> ListenerTimes? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = Date().timeIntervalSince1970
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { return nil }
        let request = Array("GET /\(mount) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard send(descriptor, request, request.count, 0) == request.count else { return nil }
        var received: [UInt8] = []
        var headers: Double?
        var buffer = [UInt8](repeating: 0, count: 65536)
        let end = Array("\r\n\r\n".utf8)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            let now = Date().timeIntervalSince1970
            received += buffer[0..<count]
            guard let split = received.indices.dropLast(3).first(where: { Array(received[$0..<$0 + 4]) == end }) else { continue }
            headers = headers ?? now
            if received.count > split + 4 { return ListenerTimes(connected: connected, headers: headers ?? now, firstAudio: now) }
        }
    }

    private static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
