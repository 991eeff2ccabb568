import Foundation

/// CPU time of `voicememo record` against `arecord` capturing the same audio from the same
/// unpaced ALSA file device (Resources/alsa/test-devices.conf.in) into WAV pcm16, side by side
/// in one run; FLAC, and a WAV memo (into a library: the same recording plus the statistics
/// measured while it is written, and the index), reported beside them.
///
/// Each row has a peer doing the same work: WAV against bare `arecord` and against
/// `arecord -V stereo` (which meters every frame, as we do); MP3 at the default quality
/// against `arecord | ffmpeg -c:a libmp3lame -q:a 2` and M4A against
/// `arecord | ffmpeg -c:a aac -b:a 128k`, the same capture through the same encoders at the
/// same settings (LAME VBR with its default algorithm quality, which neither libsndfile nor
/// ffmpeg's `libmp3lame` changes unless asked; AAC-LC at 64 kbit/s a channel). The pipeline
/// runs under `sh`, whose `wait4` counts both of its children. ffmpeg's own ALSA input is not
/// the peer: it stamps packets with the wall clock, and an unpaced device makes it drop and
/// queue audio. The lengths and bit rates of the files are printed for each encoded row.
///
/// The device delivers as fast as it is read, so each run is pure CPU work: ALSA's plug and
/// file plugins, our capture thread, metering of every frame, the ring, the writer thread and
/// libsndfile. CPU time is user + system of the child, from `wait4`. Rounds are interleaved
/// and every run writes a new file (outputs are removed, outside the timing, before each run).
struct RecordBenchmark {
    let seconds: Int
    let rounds = 5

    func run() {
        guard let arecord = Self.which("arecord") else {
            printToStandardError("voicememo-bench record: arecord is not installed (apt-get install alsa-utils)")
            exit(1)
        }
        let ffmpeg = Self.which("ffmpeg")
        let voicememo = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let input = work.appendingPathComponent("input.raw").path
        let config = work.appendingPathComponent("devices.conf").path
        do {
            try Self.writeNoise(to: input, frames: (seconds + 5) * 48_000)
            try Self.writeConfig(to: config, captureFile: input, work: work.path)
        } catch {
            printToStandardError("voicememo-bench record: cannot prepare the input: \(error)")
            exit(1)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:" + config
        // Only the memo row uses a library; `--output` never opens one.
        environment["VOICEMEMO_HOME"] = work.appendingPathComponent("library").path
        let duration = String(seconds)
        let output = { (name: String) in work.appendingPathComponent(name).path }
        let capture = ["-q", "-D", "voicememo_capture", "-f", "S16_LE", "-r", "48000", "-c", "2", "-d", duration]
        let record = { (format: String, name: String) in
            ["record", "--source", "alsa:voicememo_capture", "--format", format, "--rate", "48000", "--channels", "2",
             "--duration", duration, "--output", output(name)]
        }
        /// `arecord` piped into `ffmpeg` encoding raw S16_LE with `codec` into `name`.
        let piped = { (codec: String, name: String) in
            ["-c", "\(arecord) " + (capture + ["-t", "raw"]).joined(separator: " ")
                + " | \(ffmpeg ?? "ffmpeg") -nostdin -v error -y -f s16le -ar 48000 -ac 2 -i pipe:0 \(codec) "
                + output(name)]
        }
        var commands: [(String, String, [String])] = [
            ("arecord → WAV pcm16", arecord, capture + [output("a.wav")]),
            ("voicememo → WAV pcm16", voicememo, record("wav", "v.wav") + ["--encoding", "pcm16"]),
            ("voicememo → FLAC 16", voicememo, record("flac", "v.flac") + ["--encoding", "pcm16"]),
            // The memo's recording and statistics, without the transcription that `record`
            // starts afterwards (`voicememo-bench transcribe` measures that).
            ("voicememo → WAV memo", voicememo,
             ["record", "--source", "alsa:voicememo_capture", "--format", "wav", "--encoding", "pcm16",
              "--rate", "48000", "--channels", "2", "--duration", duration, "--no-transcribe"]),
            ("arecord -V stereo → WAV", arecord, ["-V", "stereo"] + capture + [output("m.wav")]),
        ]
        // Encoded rows and their peers: (ours, peer) indices into `commands`.
        var pairs: [(Int, Int, String)] = [(1, 0, "WAV"), (1, 4, "WAV, both metering")]
        if ffmpeg != nil {
            commands += [
                ("voicememo → MP3", voicememo, record("mp3", "v.mp3")),
                ("arecord | ffmpeg MP3 -q:a 2", "/bin/sh", piped("-c:a libmp3lame -q:a 2", "f.mp3")),
                ("voicememo → M4A", voicememo, record("m4a", "v.m4a")),
                ("arecord | ffmpeg AAC 128k", "/bin/sh", piped("-c:a aac -b:a 128k", "f.m4a")),
            ]
            pairs += [(5, 6, "MP3"), (7, 8, "M4A")]
        } else {
            printToStandardError("voicememo-bench record: ffmpeg is not installed; MP3 and M4A rows skipped")
        }
        let encodedFiles = ["v.mp3", "f.mp3", "v.m4a", "f.m4a"]
        print("record: \(seconds) s of 48 kHz stereo S16_LE from an unpaced ALSA file device, \(rounds) rounds interleaved")
        var cpu = Array(repeating: [Double](), count: commands.count)
        var wall = Array(repeating: [Double](), count: commands.count)
        for _ in 0..<rounds {
            // Every run creates its file afresh, as a new memo does: an existing file costs
            // arecord an unlink of 115 MB and libsndfile a truncation (after which ext4's
            // auto_da_alloc also flushes the new file at close), different work timed on each side.
            // Removed once a round, so that the last round's encoded files are there to describe.
            for name in ["a.wav", "v.wav", "v.flac", "m.wav"] + encodedFiles { unlink(output(name)) }
            for (index, command) in commands.enumerated() {
                guard let result = ChildProcess.run(command.1, command.2, environment: environment), result.status == 0 else {
                    printToStandardError("voicememo-bench record: \(command.0) failed")
                    exit(1)
                }
                cpu[index].append(result.cpuSeconds)
                wall[index].append(result.wallSeconds)
            }
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        let baseline = median(cpu[0])
        print("  " + "command".padding(to: 24) + "CPU s (median)".leftPadding(to: 15) + "wall s".leftPadding(to: 9) + "÷ arecord".leftPadding(to: 11) + "   all CPU s")
        for (index, command) in commands.enumerated() {
            let ratio = median(cpu[index]) / baseline
            print("  " + command.0.padding(to: 24) + fixed(median(cpu[index]), decimals: 3).leftPadding(to: 15)
                + fixed(median(wall[index]), decimals: 3).leftPadding(to: 9) + (fixed(ratio, decimals: 2) + "×").leftPadding(to: 11)
                + "   " + cpu[index].map { fixed($0, decimals: 3) }.joined(separator: " "))
        }
        for (ours, peer, what) in pairs {
            let ratio = median(cpu[ours]) / median(cpu[peer])
            print("  \(what): \(commands[ours].0) ÷ \(commands[peer].0) = \(fixed(ratio, decimals: 2))×")
        }
        for name in encodedFiles where FileManager.default.fileExists(atPath: output(name)) {
            print("  \(name): \(Self.describe(output(name)))")
        }
        let bare = median(cpu[1]) / baseline
        let metering = median(cpu[1]) / median(cpu[4])
        print("goal: voicememo WAV ≤ 1.3× bare arecord's CPU time: \(bare <= 1.3 ? "PASS" : "MISS") (\(fixed(bare, decimals: 2))×)")
        print("goal: voicememo WAV ≤ 0.8× arecord -V stereo: \(metering <= 0.8 ? "PASS" : "MISS") (\(fixed(metering, decimals: 2))×)")
        for (ours, peer, what) in pairs where what == "MP3" || what == "M4A" {
            let ratio = median(cpu[ours]) / median(cpu[peer])
            print("goal: voicememo \(what) ≤ 1.0× ffmpeg: \(ratio <= 1.0 ? "PASS" : "MISS") (\(fixed(ratio, decimals: 2))×)")
        }
        let statistics = median(cpu[3]) - median(cpu[1])
        print("a memo's statistics (WAV memo − WAV --output): \(fixed(statistics, decimals: 3)) CPU s, "
            + "\(fixed(100 * statistics / Double(seconds), decimals: 3)) % of a core in real time")
    }

    /// "600.000 s, 182 kbit/s" of an encoded file, from ffprobe (the file's length and its
    /// overall bit rate), or what ffprobe answered.
    static func describe(_ path: String) -> String {
        guard let ffprobe = which("ffprobe") else { return "ffprobe is not installed" }
        let answer = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-probe-\(getpid())").path
        defer { unlink(answer) }
        _ = ChildProcess.run(
            ffprobe, ["-v", "error", "-show_entries", "format=duration,bit_rate", "-of", "csv=p=0", path],
            environment: ProcessInfo.processInfo.environment, output: answer)
        let text = (try? String(contentsOfFile: answer, encoding: .utf8)) ?? ""
        let fields = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        guard fields.count == 2, let seconds = Double(fields[0]), let bitRate = Double(fields[1]) else { return text }
        return "\(fixed(seconds, decimals: 3)) s, \(fixed(bitRate / 1000, decimals: 1)) kbit/s"
    }

    static func which(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static func writeNoise(to path: String, frames: Int) throws {
        var state: UInt64 = 0x5EED
        var data = Data(count: frames * 4)
        data.withUnsafeMutableBytes { raw in
            for index in raw.bindMemory(to: Int16.self).indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                raw.bindMemory(to: Int16.self)[index] = Int16(truncatingIfNeeded: state >> 52)
            }
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// - Parameter playbackFile: where the playback device writes (`WORK/played.raw` unless given).
    static func writeConfig(to path: String, captureFile: String, work: String, playbackFile: String? = nil) throws {
        let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/alsa/test-devices.conf.in")
        let text = try String(contentsOf: template, encoding: .utf8)
            .replacingOccurrences(of: "@CAPTURE_FILE@", with: captureFile)
            .replacingOccurrences(of: "@PLAYBACK_FILE@", with: playbackFile ?? work + "/played.raw")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// Runs a program to its end and reports its CPU time (user + system, from `wait4`).
enum ChildProcess {
    /// CPU seconds of each of `commands` (program, arguments) over `rounds` rounds, the
    /// commands interleaved within each round; exits naming the one that failed.
    static func interleavedCPU(
        _ commands: [(name: String, path: String, arguments: [String])], rounds: Int, environment: [String: String],
        benchmark: String
    ) -> [[Double]] {
        var cpu = Array(repeating: [Double](), count: commands.count)
        for _ in 0..<rounds {
            for (index, command) in commands.enumerated() {
                guard let result = run(command.path, command.arguments, environment: environment), result.status == 0 else {
                    printToStandardError("voicememo-bench \(benchmark): \(command.name) failed")
                    exit(1)
                }
                cpu[index].append(result.cpuSeconds)
            }
        }
        return cpu
    }

    /// The median of `values` (the upper one of an even count).
    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    struct Result {
        let status: Int32
        let cpuSeconds: Double
        let wallSeconds: Double
    }

    /// - Parameter output: where standard output goes (/dev/null unless given).
    static func run(
        _ path: String, _ arguments: [String], environment: [String: String], output: String = "/dev/null"
    ) -> Result? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { return nil }
        let elapsed = clock.now - start
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Result(
            status: (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1,
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
