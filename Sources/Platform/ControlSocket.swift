import Glibc
import Synchronization

/// Why a control socket could not be served.
public enum ControlServeError: Error, Equatable, Sendable {
    /// Another live process serves this path (its pid, when `SO_PEERCRED` told it).
    case heldBy(pid: Int32?)
    /// The folder or the socket could not be made.
    case failed(String)

    public var message: String {
        switch self {
        case .heldBy(let pid?): "process \(pid) already serves the control socket"
        case .heldBy(nil): "another process already serves the control socket"
        case .failed(let reason): reason
        }
    }
}

/// A Unix socket that answers one request line per connection, on a thread of its own
/// (`vm-control`), so whoever owns the answers (the app's UI queue, `record`'s recorder) never
/// waits for a client's I/O.
///
/// The folder is made 0700 and the socket 0600; each connection's peer is asked for its uid
/// (`SO_PEERCRED`) and one of another uid than `allowedUID` gets `error` and is closed. A socket
/// file left by a process that died (connecting is refused) is replaced; one a live process
/// serves is not (`ControlServeError.heldBy`).
public final class ControlServer: Sendable {
    public let path: String
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let thread = Mutex<JoinableThread?>(nil)
    /// The socket file's inode, so `close()` removes only a file this server made.
    private let inode: UInt

    /// Serves `path`: each request line goes to `answer` (on the socket's thread), whose
    /// result is written back as one line.
    ///
    /// - Parameter allowedUID: the uid a peer must have (the process's own by default).
    public init(
        path: String, allowedUID: UInt32 = getuid(), answer: @escaping @Sendable (String) -> String
    ) throws(ControlServeError) {
        self.path = path
        try Self.makeFolder(of: path)
        switch ControlClient.probe(path) {
        case .live(let pid): throw .heldBy(pid: pid)
        case .stale:
            // connect(2) answers ECONNREFUSED for any file that is not a listening socket: only
            // a socket is a server's leftover; anything else at the path is someone's file.
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else {
                throw .failed("\(path) is not a socket; it is left as it is")
            }
            unlink(path)
        case .absent: break
        }
        let socketFile = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFile >= 0 else { throw .failed("cannot make a socket: \(Self.errnoText())") }
        var address = try Self.address(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFile, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if bound != 0 {
            let code = errno
            Glibc.close(socketFile)
            if code == EADDRINUSE, case .live(let pid) = ControlClient.probe(path) { throw .heldBy(pid: pid) }
            throw .failed("cannot serve \(path): \(String(cString: strerror(code)))")
        }
        chmod(path, 0o600)
        guard listen(socketFile, 8) == 0 else {
            let text = Self.errnoText()
            Glibc.close(socketFile)
            unlink(path)
            throw .failed("cannot listen on \(path): \(text)")
        }
        var status = stat()
        inode = stat(path, &status) == 0 ? UInt(status.st_ino) : 0
        var pipeFiles: [Int32] = [-1, -1]
        guard pipe(&pipeFiles) == 0 else {
            Glibc.close(socketFile)
            unlink(path)
            throw .failed("cannot make a pipe: \(Self.errnoText())")
        }
        for file in pipeFiles { _ = fcntl(file, F_SETFD, FD_CLOEXEC) }
        listener = socketFile
        wake = (pipeFiles[0], pipeFiles[1])
        let listener = socketFile
        let wakeRead = pipeFiles[0]
        thread.withLock {
            $0 = JoinableThread(name: "vm-control") {
                Self.serve(listener: listener, wake: wakeRead, allowedUID: allowedUID, answer: answer)
            }
        }
    }

    /// Stops serving: joins the thread, closes the socket and removes its file. Idempotent.
    public func close() {
        guard let running = thread.withLock({ current -> JoinableThread? in
            defer { current = nil }
            return current
        }) else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        running.join()
        Glibc.close(listener)
        Glibc.close(wake.read)
        Glibc.close(wake.write)
        var status = stat()
        if stat(path, &status) == 0, UInt(status.st_ino) == inode { unlink(path) }
    }

    deinit { close() }

    private static func serve(
        listener: Int32, wake: Int32, allowedUID: UInt32, answer: @Sendable (String) -> String
    ) {
        while true {
            var files = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&files, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if files[1].revents != 0 { return }
            guard files[0].revents & Int16(POLLIN) != 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            respond(on: connection, allowedUID: allowedUID, answer: answer)
            Glibc.close(connection)
        }
    }

    private static func respond(on connection: Int32, allowedUID: UInt32, answer: @Sendable (String) -> String) {
        setTimeout(connection, seconds: 2)
        guard let peer = peerCredentials(connection) else {
            send("error cannot tell the peer's uid: \(errnoText())", to: connection)
            return
        }
        guard peer.uid == allowedUID else {
            send("error refused: uid \(peer.uid) is not uid \(allowedUID), which owns this socket", to: connection)
            // The request is read and dropped: closing with it unread would reset the connection,
            // and the client might lose the refusal.
            shutdown(connection, Int32(SHUT_WR))
            _ = readLine(connection)
            return
        }
        guard let line = readLine(connection) else {
            send("error no request line within 2 s", to: connection)
            return
        }
        send(answer(line), to: connection)
    }

    static func send(_ line: String, to connection: Int32) {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a peer gone already is an error here, not a SIGPIPE that ends the process.
            let written = bytes.withUnsafeMutableBytes {
                Glibc.send(connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// One line (at most 4 kB, without its `\n`), or `nil` on a timeout or an error; the text
    /// up to the end of the stream when no `\n` comes.
    static func readLine(_ connection: Int32) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while bytes.count < 4096 {
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if let newline = buffer[..<count].firstIndex(of: UInt8(ascii: "\n")) {
                bytes.append(contentsOf: buffer[..<newline])
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes.append(contentsOf: buffer[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func setTimeout(_ connection: Int32, seconds: Int) {
        var time = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The other end's pid and uid (`SO_PEERCRED`).
    static func peerCredentials(_ connection: Int32) -> (pid: Int32, uid: UInt32)? {
        var credentials = PeerCredentials()
        var size = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0 else { return nil }
        return (credentials.pid, credentials.uid)
    }

    /// Makes the socket's folder (and its parents) 0700, and refuses one another user owns or others may enter.
    private static func makeFolder(of path: String) throws(ControlServeError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let folder = String(path[..<slash])
        var partial = ""
        for component in folder.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0, errno != EEXIST {
                throw .failed("cannot make \(partial) for the control socket: \(errnoText())")
            }
        }
        var status = stat()
        guard stat(folder, &status) == 0 else { throw .failed("cannot read \(folder): \(errnoText())") }
        guard status.st_uid == getuid() else {
            throw .failed("\(folder) belongs to uid \(status.st_uid), not to this user; the control socket is not served there")
        }
        if status.st_mode & 0o077 != 0 { chmod(folder, 0o700) }
    }

    static func address(_ path: String) throws(ControlServeError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw .failed("the control socket's path is over \(capacity - 1) bytes: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// `struct ucred` (pid, uid, gid), which Swift's Glibc module leaves out (glibc declares it for
/// `_GNU_SOURCE` only); the kernel's layout, the same on every Linux architecture.
private struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// An `errno` as an error, for `Result`.
struct SystemError: Error {
    let code: Int32
}

/// Sends one request line to a control socket and reads the reply line.
public enum ControlClient {
    /// What is at a socket's path.
    public enum Presence: Equatable, Sendable {
        /// Nothing, or not a socket one may connect to.
        case absent
        /// A socket file nobody serves (its process died): connecting is refused.
        case stale
        /// A live server, with its pid.
        case live(pid: Int32?)
    }

    public enum Failure: Error, Equatable, Sendable {
        /// Nobody serves the path: no file, or a stale one.
        case noServer
        /// Connecting, sending or reading failed.
        case failed(String)
    }

    /// Connects and says what is there, without sending anything.
    public static func probe(_ path: String) -> Presence {
        switch connect(path) {
        case .success(let connection):
            let pid = ControlServer.peerCredentials(connection)?.pid
            close(connection)
            return .live(pid: pid)
        case .failure(let error):
            return error.code == ECONNREFUSED ? .stale : .absent
        }
    }

    /// `line` to the server at `path`, and its reply line (without `\n`).
    public static func send(_ line: String, to path: String, timeoutSeconds: Int = 10) -> Result<String, Failure> {
        let connection: Int32
        switch connect(path) {
        case .success(let opened): connection = opened
        case .failure(let error) where error.code == ENOENT || error.code == ECONNREFUSED: return .failure(.noServer)
        case .failure(let error): return .failure(.failed("cannot connect to \(path): \(String(cString: strerror(error.code)))"))
        }
        defer { close(connection) }
        // Whoever made the path (a /tmp fallback folder) must be this user, or nothing is sent.
        if let peer = ControlServer.peerCredentials(connection), peer.uid != getuid() {
            return .failure(.failed("\(path) is served by uid \(peer.uid), not by this user; nothing was sent"))
        }
        ControlServer.setTimeout(connection, seconds: timeoutSeconds)
        ControlServer.send(line, to: connection)
        guard let reply = ControlServer.readLine(connection) else {
            return .failure(.failed("no reply from \(path) within \(timeoutSeconds) s"))
        }
        return .success(reply)
    }

    private static func connect(_ path: String) -> Result<Int32, SystemError> {
        guard var address = try? ControlServer.address(path) else { return .failure(SystemError(code: ENAMETOOLONG)) }
        let connection = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard connection >= 0 else { return .failure(SystemError(code: errno)) }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(connection, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            close(connection)
            return .failure(SystemError(code: code))
        }
        return .success(connection)
    }
}
