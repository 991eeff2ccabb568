import Foundation
import Platform
import Synchronization

/// `voicememo-bench latency`: from a sound played into a sound server to the app's first frame
/// whose meter shows it.
///
/// A private PulseAudio daemon (as Tests/pulse-daemon.sh starts one) with a null sink; an ALSA
/// device of the pulse plugin on the sink's monitor, the app's input. The sound is a 40 ms burst
/// of 1 kHz at −6 dBFS written into a `pacat` that stays connected to the sink between bursts
/// (`--latency-msec=10`; its stream runs dry after each burst and starts again as the next one
/// arrives), so a burst costs a `write(2)` into a pipe and not a process start; the time taken
/// is `CLOCK_MONOTONIC` just before that write. The bursts come 0.4–0.7 s apart (seeded), so
/// they fall at every phase of the app's tick.
///
/// 1. The path without the app: `parec --latency-msec=5` on the monitor, each burst timed to the
///    first chunk of it that `parec` delivers. This is what the method and the server cost.
/// 2. The release app in a detached tmux session at 80×24 on that device, with
///    `VOICEMEMO_FRAME_LOG`: each burst timed to the first frame drawn after it whose meter
///    peak is at least −20 dBFS (`FrameLogLine.first`), and the app's CPU over the bursts.
/// 3. `voicememo record` from the same device for 60 s (`VOICEMEMO_BENCH_LATENCY_SECONDS`):
///    its overrun count, with the capture's period and buffer.
struct LatencyBenchmark {
    let bursts: Int
    let recordSeconds: Int
    /// The level a frame must show to count as showing the burst.
    static let levelDB: Float = -20
    static let rate = 48_000
    static let sink = "latency_sink"
    static let device = "voicememo_latency"

    static func burstsFromEnvironment() -> Int {
        ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_LATENCY_BURSTS"].flatMap { Int($0) }.map { max($0, 1) } ?? 20
    }

    static func secondsFromEnvironment() -> Int {
        ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_LATENCY_SECONDS"].flatMap { Int($0) }.map { max($0, 0) } ?? 60
    }

    func run() {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-latency-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        // Everything started is stopped before the exit: a daemon left behind would outlive the bench.
        let measured = measure(work: work)
        try? FileManager.default.removeItem(atPath: work)
        if !measured { exit(1) }
    }

    private func measure(work: String) -> Bool {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        for tool in ["/usr/bin/pulseaudio", "/usr/bin/pacat", "/usr/bin/pactl", "/usr/bin/tmux"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            printToStandardError("voicememo-bench latency: \(tool) is missing (Debian: pulseaudio pulseaudio-utils libasound2-plugins tmux)")
            return false
        }
        guard let server = PrivatePulse(directory: work + "/pulse", sink: Self.sink, rate: Self.rate) else { return false }
        defer { server.stop() }
        let alsaConfig = work + "/alsa.conf"
        let definition = "pcm.\(Self.device) { type pulse server \"\(server.address)\" device \"\(Self.sink).monitor\" }\n"
        _ = FileManager.default.createFile(atPath: alsaConfig, contents: Data(definition.utf8))
        var environment = [
            "PATH": "/usr/bin:/bin", "PULSE_SERVER": server.address, "HOME": work + "/home", "LANG": "C.UTF-8",
            "ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:" + alsaConfig, "TERM": "xterm-256color",
        ]
        try? FileManager.default.createDirectory(atPath: work + "/home", withIntermediateDirectories: true)
        print("latency: a \(Int(Self.burstDuration * 1000)) ms burst at −6 dBFS into a PulseAudio null sink → the first frame showing ≥ \(Int(Self.levelDB)) dBFS; \(bursts) bursts (release build)")

        guard let player = SpawnedProcess(
            "/usr/bin/pacat",
            ["--playback", "--raw", "--format=s16le", "--rate=\(Self.rate)", "--channels=2", "--latency-msec=10",
             "--device=\(Self.sink)", "--client-name=voicememo-bench"],
            environment: environment, pipeInput: true, log: work + "/pacat.log")
        else {
            printToStandardError("voicememo-bench latency: pacat did not start")
            return false
        }
        defer { player.stop() }
        usleep(500_000)
        let schedule = Self.spacings(count: bursts)

        // 1. The server's own path, read by parec.
        guard let serverPath = measureWithoutTheApp(player: player, schedule: schedule, environment: environment, work: work)
        else { return false }
        printRow("without the app (parec --latency-msec=5)", serverPath.latencies, of: bursts)

        // 2. The app.
        environment["VOICEMEMO_HOME"] = work + "/library"
        environment["XDG_CONFIG_HOME"] = work + "/config"
        environment["VOICEMEMO_FRAME_LOG"] = work + "/frames.log"
        guard let app = measureTheApp(binary: binary, player: player, schedule: schedule, environment: environment, work: work)
        else { return false }
        printRow("the app, to its frame", app.latencies, of: bursts)
        print("  the capture's stream at the server: \(app.streamAttributes)")
        print("  the app's CPU over the bursts: \(fixed(app.cpuPercent, decimals: 2)) % of one core")
        if let median = Self.percentile(app.latencies, 0.5), let floorMedian = Self.percentile(serverPath.latencies, 0.5) {
            print("  the app adds \(fixed((median - floorMedian) * 1000, decimals: 1)) ms (median) to the server's path")
        }

        // 3. Overruns over a minute of recording from the same device.
        if recordSeconds > 0 {
            let overruns = countOverruns(binary: binary, environment: environment, work: work)
            print("  `record` for \(recordSeconds) s from the device: \(overruns.map { "\($0) overruns" } ?? "did not run")")
        }
        let median = Self.percentile(app.latencies, 0.5) ?? .infinity
        print("goal: median ≤ 50 ms: \(median <= 0.05 ? "PASS" : "MISS")")
        return true
    }

    // MARK: The burst

    static let burstDuration = 0.04

    /// 40 ms of 1 kHz at −6 dBFS, stereo S16_LE, starting at its crest (the first sample is loud).
    static func burst() -> [UInt8] {
        let frames = Int(burstDuration * Double(rate))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frames * 4)
        for frame in 0..<frames {
            let value = Int16(0.5 * 32_767 * cos(2 * Double.pi * 1000 * Double(frame) / Double(rate)))
            let sample = UInt16(bitPattern: value)
            for _ in 0..<2 { bytes += [UInt8(sample & 0xFF), UInt8(sample >> 8)] }
        }
        return bytes
    }

    /// Seconds before each burst: 0.4–0.7 s, from a fixed seed (every run the same).
    static func spacings(count: Int) -> [Double] {
        var state: UInt32 = 2_026
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return 0.4 + 0.3 * Double(state >> 8) / Double(1 << 24)
        }
    }

    /// Plays the bursts after `schedule`'s pauses; returns when each was written.
    private func playBursts(_ player: SpawnedProcess, schedule: [Double]) -> [Double] {
        let burst = Self.burst()
        var written: [Double] = []
        for pause in schedule {
            usleep(UInt32(pause * 1e6))
            written.append(monotonicNow())
            player.write(burst)
        }
        return written
    }

    // MARK: The phases

    struct Result {
        var latencies: [Double]
        var cpuPercent = 0.0
        var streamAttributes = ""
    }

    private func measureWithoutTheApp(
        player: SpawnedProcess, schedule: [Double], environment: [String: String], work: String
    ) -> Result? {
        guard let reader = SpawnedProcess(
            "/usr/bin/parec",
            ["--raw", "--format=s16le", "--rate=\(Self.rate)", "--channels=2", "--latency-msec=5",
             "--device=\(Self.sink).monitor", "--client-name=voicememo-bench-parec"],
            environment: environment, pipeOutput: true, log: work + "/parec.log")
        else {
            printToStandardError("voicememo-bench latency: parec did not start")
            return nil
        }
        let chunks = LoudChunks(descriptor: reader.output, threshold: Int16(32_767 * pow(10, Double(Self.levelDB) / 20)))
        let thread = Thread { chunks.readUntilEnd() }
        thread.start()
        usleep(1_000_000)
        let written = playBursts(player, schedule: schedule)
        usleep(500_000)
        reader.stop()
        let loud = chunks.wait()
        var latencies: [Double] = []
        for (index, time) in written.enumerated() {
            let end = index + 1 < written.count ? written[index + 1] : .infinity
            if let arrival = loud.first(where: { $0 > time && $0 < end }) { latencies.append(arrival - time) }
        }
        return Result(latencies: latencies)
    }

    private func measureTheApp(
        binary: String, player: SpawnedProcess, schedule: [Double], environment: [String: String], work: String
    ) -> Result? {
        let log = environment["VOICEMEMO_FRAME_LOG"] ?? work + "/frames.log"
        try? FileManager.default.createDirectory(atPath: work + "/config/voicememo", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: work + "/config/voicememo/config", contents: Data("transcribe = manual\n".utf8))
        guard let app = AppPane(
            binary: binary, arguments: "--source alsa:\(Self.device)", environment: environment, work: work, name: "latency"),
            app.waitFor("Listening to", timeout: 30) != nil, let pid = app.appPID()
        else {
            printToStandardError("voicememo-bench latency: the app did not start listening to alsa:\(Self.device)")
            return nil
        }
        usleep(2_000_000)
        let attributes = PrivatePulse.sourceOutputs(environment: environment, work: work)
        let cpuBefore = processCPUSeconds(pid) ?? 0
        let from = monotonicNow()
        let written = playBursts(player, schedule: schedule)
        usleep(500_000)
        let cpu = ((processCPUSeconds(pid) ?? 0) - cpuBefore) / (monotonicNow() - from) * 100
        guard app.quit() != nil, let text = try? String(contentsOfFile: log, encoding: .utf8) else { return nil }
        let frames = FrameLogLine.lines(of: text)
        var latencies: [Double] = []
        for (index, time) in written.enumerated() {
            let end = index + 1 < written.count ? written[index + 1] : .infinity
            if let frame = FrameLogLine.first(in: frames, after: time, before: end, atLeast: Self.levelDB) {
                latencies.append(frame.time - time)
            }
        }
        return Result(latencies: latencies, cpuPercent: cpu, streamAttributes: attributes)
    }

    private func countOverruns(binary: String, environment: [String: String], work: String) -> Int? {
        let output = work + "/record.json"
        guard let result = ChildProcess.run(
            binary,
            ["record", "--source", "alsa:\(Self.device)", "--duration", "\(recordSeconds)s", "--no-transcribe", "--json",
             "--output", work + "/minute.wav"],
            environment: environment, output: output),
            result.status == 0,
            let data = FileManager.default.contents(atPath: output),
            let report = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return report["overruns"] as? Int
    }

    // MARK: Figures

    /// The value at `fraction` of the sorted values (nearest rank); `nil` for none.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    private func printRow(_ name: String, _ latencies: [Double], of count: Int) {
        let ms = { (value: Double?) in value.map { fixed($0 * 1000, decimals: 1) + " ms" } ?? "—" }
        print("  \(name.padding(to: 42)) median \(ms(Self.percentile(latencies, 0.5))), p90 \(ms(Self.percentile(latencies, 0.9))), "
            + "\(ms(latencies.min()))…\(ms(latencies.max())); \(latencies.count) of \(count) bursts seen")
    }
}

/// A private PulseAudio daemon with one null sink, reached only through its socket.
final class PrivatePulse {
    let address: String
    private let process: SpawnedProcess

    init?(directory: String, sink: String, rate: Int) {
        for folder in ["home", "run"] {
            try? FileManager.default.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: true)
        }
        let script = """
            load-module module-null-sink sink_name=\(sink) rate=\(rate) channels=2
            load-module module-native-protocol-unix socket=\(directory)/native auth-anonymous=1
            set-default-sink \(sink)
            set-default-source \(sink).monitor

            """
        _ = FileManager.default.createFile(atPath: directory + "/default.pa", contents: Data(script.utf8))
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": directory + "/home", "XDG_RUNTIME_DIR": directory + "/run",
            "PULSE_RUNTIME_PATH": directory + "/run",
        ]
        guard let process = SpawnedProcess(
            "/usr/bin/pulseaudio",
            ["-n", "-F", directory + "/default.pa", "--daemonize=no", "--exit-idle-time=-1", "--log-level=notice"],
            environment: environment, log: directory + "/pulseaudio.log")
        else {
            printToStandardError("voicememo-bench latency: pulseaudio did not start")
            return nil
        }
        self.process = process
        address = "unix:\(directory)/native"
        let deadline = monotonicNow() + 10
        while !FileManager.default.fileExists(atPath: directory + "/native") {
            guard monotonicNow() < deadline else {
                printToStandardError("voicememo-bench latency: no PulseAudio socket after 10 s (\(directory)/pulseaudio.log)")
                process.stop()
                return nil
            }
            usleep(50_000)
        }
    }

    func stop() { process.stop() }

    /// `pactl list source-outputs`' buffer and source latency of each record stream, one line.
    static func sourceOutputs(environment: [String: String], work: String) -> String {
        let output = work + "/pactl.out"
        guard ChildProcess.run("/usr/bin/pactl", ["list", "source-outputs"], environment: environment, output: output)?.status == 0,
            let text = try? String(contentsOfFile: output, encoding: .utf8)
        else { return "unknown" }
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let latencies = lines.filter { $0.hasPrefix("Buffer Latency:") || $0.hasPrefix("Source Latency:") }
        return latencies.isEmpty ? "unknown" : latencies.joined(separator: ", ")
    }
}

/// A child process left running, with its standard input or output on a pipe of ours, its
/// other output and standard error in `log`.
final class SpawnedProcess {
    private(set) var pid: pid_t
    /// The write end of its standard input (`pipeInput`), else −1.
    private(set) var input: Int32 = -1
    /// The read end of its standard output (`pipeOutput`), else −1.
    let output: Int32

    init?(
        _ path: String, _ arguments: [String], environment: [String: String], pipeInput: Bool = false,
        pipeOutput: Bool = false, log: String
    ) {
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        if pipeInput, !Self.makePipe(&inputPipe) { return nil }
        if pipeOutput, !Self.makePipe(&outputPipe) { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if pipeInput {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if pipeOutput {
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        if pipeInput { close(inputPipe[0]) }
        if pipeOutput { close(outputPipe[1]) }
        guard spawned == 0 else {
            for descriptor in [inputPipe[1], outputPipe[0]] where descriptor >= 0 { close(descriptor) }
            return nil
        }
        self.pid = pid
        input = inputPipe[1]
        output = outputPipe[0]
    }

    /// A pipe whose ends close on exec (the child gets its end through `dup2`).
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Writes all of `bytes` to its standard input.
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let written = Glibc.write(input, base + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Closes its input, asks it to end (SIGTERM) and waits for it.
    func stop() {
        guard pid > 0 else { return }
        if input >= 0 {
            close(input)
            input = -1
        }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        pid = 0
    }

    deinit {
        stop()
        if output >= 0 { close(output) }
    }
}

/// Reads raw stereo S16_LE from a pipe to its end, noting when each read held a sample at or
/// above `threshold` (`CLOCK_MONOTONIC` seconds).
final class LoudChunks: Sendable {
    private let descriptor: Int32
    private let threshold: Int16
    private let times = Mutex<[Double]>([])
    private let finished = DispatchSemaphore(value: 0)

    init(descriptor: Int32, threshold: Int16) {
        self.descriptor = descriptor
        self.threshold = threshold
    }

    func readUntilEnd() {
        var buffer = [Int16](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            let now = monotonicNow()
            let samples = count / 2
            if buffer[0..<samples].contains(where: { $0 >= threshold || $0 <= -threshold }) {
                times.withLock { $0.append(now) }
            }
        }
        finished.signal()
    }

    /// Waits for the end of the pipe; the times of the loud reads.
    func wait() -> [Double] {
        finished.wait()
        return times.withLock { $0 }
    }
}
