import Glibc
import Platform
import TestSupport
import Testing

/// `ControlServer` and `ControlClient` over a socket in a temporary folder: a request answered,
/// a peer of another uid refused (`SO_PEERCRED`), a stale socket file replaced, a live one not.
@Suite struct ControlSocketTests {
    @Test func aRequestLineIsAnsweredWithOneLineAndTheFilesAreMadePrivate() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-control")
        let path = directory.file("run/voicememo/lib.sock")
        let server = try ControlServer(path: path) { "ok you said \($0)" }
        defer { server.close() }
        #expect(ControlClient.send("status", to: path) == .success("ok you said status"))
        #expect(ControlClient.send("mark two words", to: path) == .success("ok you said mark two words"))
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(stat(directory.file("run/voicememo"), &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(ControlClient.probe(path) == .live(pid: getpid()))
    }

    @Test func aPeerOfAnotherUIDIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-control")
        let path = directory.file("lib.sock")
        // The server allows a uid that is not this process's, so this process is the stranger.
        let server = try ControlServer(path: path, allowedUID: getuid() &+ 1) { _ in "ok never" }
        defer { server.close() }
        let reply = try ControlClient.send("toggle", to: path).get()
        #expect(reply == "error refused: uid \(getuid()) is not uid \(getuid() &+ 1), which owns this socket")
    }

    @Test func aFileThatIsNotASocketIsNeitherServedOverNorRemoved() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-control")
        let path = directory.file("lib.sock")
        let text = "a file of someone's\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: ControlServeError.failed("\(path) is not a socket; it is left as it is")) {
            _ = try ControlServer(path: path) { _ in "ok never" }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    @Test func aStaleSocketIsReplacedAndALiveOneIsNot() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-control")
        let path = directory.file("lib.sock")
        // A socket bound and closed without unlinking: what a killed server leaves.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(stale)
        #expect(ControlClient.probe(path) == .stale)
        #expect(ControlClient.send("status", to: path) == .failure(.noServer))

        let server = try ControlServer(path: path) { _ in "ok here" }
        defer { server.close() }
        #expect(ControlClient.send("status", to: path) == .success("ok here"))
        #expect(throws: ControlServeError.heldBy(pid: getpid())) {
            try ControlServer(path: path) { _ in "ok second" }
        }
        #expect(ControlClient.send("status", to: path) == .success("ok here"), "the first still serves")
        server.close()
        #expect(access(path, F_OK) != 0, "closing removes the socket file")
        #expect(ControlClient.send("status", to: path) == .failure(.noServer))
    }
}
