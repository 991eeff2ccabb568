import Foundation

/// `Tests/stream-server.py` on 127.0.0.1, serving files from `root`: started by a test, ended
/// when it is released (its standard input closes; the process is also terminated).
final class StreamTestServer {
    let port: Int
    private let process: Process
    private let input: Pipe

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the server and waits (at most 10 s) for the port it prints.
    ///
    /// - Parameter tls: a certificate and key (PEM) to serve https with.
    init(root: String, tls: (certificate: String, key: String)? = nil) throws {
        let script = TestResources.url("../Tests/stream-server.py").standardizedFileURL.path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, root] + (tls.map { ["--cert", $0.certificate, "--key", $0.key] } ?? [])
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = DispatchSemaphore(value: 0)
        let received = LockedText()
        let reader = output.fileHandleForReading
        DispatchQueue.global().async {
            var text = ""
            while !text.contains("\n") {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            received.set(text)
            line.signal()
        }
        guard line.wait(timeout: .now() + .seconds(10)) == .success,
            let port = Int(received.get().trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw StartFailure(description: "the stream test server did not print its port within 10 s")
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// `http://127.0.0.1:PORT/PATH` (or https).
    func url(_ path: String, secure: Bool = false) -> String {
        "\(secure ? "https" : "http")://127.0.0.1:\(port)/\(path)"
    }
}

private final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func set(_ value: String) { lock.withLock { text = value } }
    func get() -> String { lock.withLock { text } }
}
