import Foundation

/// Memory of `voicememo play URL` over a long live stream, fast: the loopback test server
/// (Tests/stream-server.py) sends a looped 128 kbit/s MP3 without a length and without pacing
/// (`/live/NAME?bps=0`, ICY metadata with a new `StreamTitle` in every 8000-byte block), and
/// `play` writes into the unpaced ALSA file playback device over /dev/null, so hours of audio
/// go through the whole stream path (HTTP, ICY, demuxing, decoding, the meter, ALSA) in minutes.
///
/// Every second it reads the player's resident set (`VmRSS`, and its peak `VmHWM`, from
/// /proc/PID/status) and how far the stream is: unpaced, the server's title is `Song N` after
/// N blocks of 8000 bytes, and `play --json` prints each title it receives, so N × 8000 × 8 ÷
/// 128 000 is the audio the player has taken (`rchar` of /proc/PID/io does not count `recv`);
/// a row per `VOICEMEMO_BENCH_HOURS`/8
/// of audio, then the first and last figures and the slope per hour of audio. The audio's
/// length defaults to 24 h (`VOICEMEMO_BENCH_HOURS=H` for another).
struct StreamMemoryBenchmark {
    let hours: Double
    static let bitRate = 128_000.0

    static func hoursFromEnvironment() -> Double {
        ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_HOURS"].flatMap(Double.init).map { max(0.01, $0) } ?? 24
    }

    func run() {
        let voicememo = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        let server = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/stream-server.py").path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-stream-\(getpid())")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = Self.writeInputs(in: work)
        let serving = Process()
        let serverInput = Pipe()
        defer { try? serverInput.fileHandleForWriting.close() }
        let port = Self.startServer(serving, script: server, work: work, input: serverInput)

        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:" + config
        environment["VOICEMEMO_HOME"] = work.appendingPathComponent("library").path
        let player = Process()
        player.executableURL = URL(fileURLWithPath: voicememo)
        player.arguments = ["play", "http://127.0.0.1:\(port)/live/loop.mp3?bps=0", "--device", "voicememo_playback", "--json"]
        player.environment = environment
        player.standardInput = FileHandle.nullDevice
        let events = work.appendingPathComponent("events.json").path
        _ = FileManager.default.createFile(atPath: events, contents: nil)
        guard let eventFile = FileHandle(forWritingAtPath: events), let eventReader = FileHandle(forReadingAtPath: events) else {
            printToStandardError("voicememo-bench stream: cannot create \(events)")
            exit(1)
        }
        player.standardOutput = eventFile
        player.standardError = FileHandle.nullDevice
        do { try player.run() } catch {
            printToStandardError("voicememo-bench stream: cannot start \(voicememo): \(error)")
            exit(1)
        }
        let pid = player.processIdentifier
        let wanted = hours * 3600
        print(String(format: "stream: %.1f h of a live 128 kbit/s MP3 (48 kHz stereo), unpaced, ICY title every 8000 bytes, into an unpaced ALSA file device", hours))
        print("audio h   wall s   VmRSS MB   VmHWM MB")
        let clock = ContinuousClock()
        let start = clock.now
        var first: (audio: Double, rss: Double, peak: Double)?
        var last: (audio: Double, rss: Double, peak: Double)?
        var nextRow = 0.0
        var song = 0
        while player.isRunning {
            sleep(1)
            guard let status = Self.status(pid) else { break }
            let audio = Double(Self.lastSong(in: eventReader, after: &song) * 8000) * 8 / Self.bitRate
            let sample = (audio: audio, rss: status.rss, peak: status.peak)
            // The start: once the first minute of audio has gone through (buffers allocated).
            if first == nil, audio >= 60 { first = sample }
            last = sample
            let wall = Double((clock.now - start).components.seconds)
            if audio >= nextRow {
                print(String(format: "%7.2f  %7.0f  %9.1f  %9.1f", audio / 3600, wall, status.rss, status.peak))
                nextRow += wanted / 8
            }
            if audio >= wanted { break }
        }
        let ended = !player.isRunning
        player.terminate()
        player.waitUntilExit()
        guard let first, let last, !ended else {
            printToStandardError("voicememo-bench stream: the player ended early (status \(player.terminationStatus))")
            exit(1)
        }
        let wall = Double((clock.now - start).components.seconds)
        let slope = (last.rss - first.rss) / max(1e-9, (last.audio - first.audio) / 3600)
        print(String(format: "start (%.0f s of audio): VmRSS %.1f MB, VmHWM %.1f MB", first.audio, first.rss, first.peak))
        print(String(format: "end (%.2f h of audio, %.0f s wall, %.0f× real time): VmRSS %.1f MB, VmHWM %.1f MB",
            last.audio / 3600, wall, last.audio / max(1, wall), last.rss, last.peak))
        print(String(format: "slope: %+.3f MB per hour of audio (VmRSS)", slope))
    }

    /// Writes a minute of MP3 for the server to loop and the ALSA file device the player plays
    /// into; the device's configuration file.
    private static func writeInputs(in work: URL) -> String {
        let loop = work.appendingPathComponent("loop.mp3").path
        guard let made = ChildProcess.run(
            "/usr/bin/ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=60", "-ac", "2",
             "-c:a", "libmp3lame", "-b:a", "128k", loop],
            environment: [:]), made.status == 0
        else {
            printToStandardError("voicememo-bench stream: ffmpeg could not write the MP3 (apt-get install ffmpeg)")
            exit(1)
        }
        let config = work.appendingPathComponent("devices.conf").path
        do {
            try RecordBenchmark.writeConfig(to: config, captureFile: "/dev/zero", work: work.path, playbackFile: "/dev/null")
        } catch {
            printToStandardError("voicememo-bench stream: cannot write the device: \(error)")
            exit(1)
        }
        return config
    }

    /// Starts `Tests/stream-server.py` serving `work` (it ends when `input` closes); its port.
    private static func startServer(_ serving: Process, script: String, work: URL, input serverInput: Pipe) -> Int {
        serving.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        serving.arguments = [script, work.path]
        let serverOutput = Pipe()
        serving.standardInput = serverInput
        serving.standardOutput = serverOutput
        serving.standardError = FileHandle.nullDevice
        do { try serving.run() } catch {
            printToStandardError("voicememo-bench stream: cannot start \(script): \(error)")
            exit(1)
        }
        let portLine = Self.firstLine(of: serverOutput.fileHandleForReading)
        guard let port = Int(portLine) else {
            printToStandardError("voicememo-bench stream: the server said \(portLine.debugDescription)")
            exit(1)
        }
        return port
    }

    private static func firstLine(of handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while bytes.count < 64, let byte = try? handle.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// VmRSS and VmHWM in MB.
    private static func status(_ pid: Int32) -> (rss: Double, peak: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func kilobytes(_ key: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(key + ":") }
                .flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Double($0) }
        }
        guard let rss = kilobytes("VmRSS"), let peak = kilobytes("VmHWM") else { return nil }
        return (rss / 1024, peak / 1024)
    }

    /// The highest `Song N` in the events written since the last call (`song` otherwise).
    private static func lastSong(in reader: FileHandle, after song: inout Int) -> Int {
        let data = (try? reader.readToEnd()) ?? Data()
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n").suffix(8) {
            if let range = line.range(of: "Song ") {
                let digits = line[range.upperBound...].prefix { $0.isNumber }
                song = max(song, Int(digits) ?? 0)
            }
        }
        return song
    }
}
