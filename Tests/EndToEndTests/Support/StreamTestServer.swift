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

    /// A sandbox and the server with `www/tone.mp3`: 10 s of 440 Hz, 48 kHz stereo, 128 kbit/s
    /// (16 000 bytes/s: `live/tone.mp3?bps=16000` is real time).
    static func servingATone() throws -> (VoiceMemoSandbox, StreamTestServer) {
        let sandbox = try VoiceMemoSandbox()
        try FileManager.default.createDirectory(atPath: sandbox.file("www"), withIntermediateDirectories: true)
        let made = try sandbox.shell(
            #"ffmpeg -nostdin -loglevel error -f lavfi -i "sine=f=440:d=10" -ac 2 -ar 48000 -b:a 128k www/tone.mp3"#)
        guard made.status == 0 else { throw StartFailure(description: "ffmpeg could not make the tone: \(made)") }
        return (sandbox, try StreamTestServer(root: sandbox.file("www")))
    }

    /// `voicememo list --json` in `sandbox`.
    static func memos(_ sandbox: VoiceMemoSandbox) throws -> [[String: Any]] {
        let listed = try sandbox.run("list", "--json")
        guard listed.status == 0,
            let memos = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]]
        else { throw StartFailure(description: "voicememo list --json failed: \(listed)") }
        return memos
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
