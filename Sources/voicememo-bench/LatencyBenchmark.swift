import Audio
import Foundation
import Platform
import SoundFiles
import Synchronization

/// `voicememo-bench latency`: from a sound played into a sound server to the app's first frame
/// whose meter shows it, through PulseAudio and through PipeWire.
///
/// Each server is private (Tests/pulse-daemon.sh, Tests/pipewire-daemon.sh) with a null sink;
/// the app's input is an ALSA device of the pulse plugin on the sink's monitor. The sound is a
/// 40 ms burst of 1 kHz at −6 dBFS written into a `pacat` that stays connected to the sink
/// between bursts (`--latency-msec=10`; its stream runs dry after each burst and starts again
/// as the next one arrives), so a burst costs a `write(2)` into a pipe and not a process start;
/// its time is `CLOCK_MONOTONIC` just before that write. The bursts come 0.4–0.7 s apart
/// (seeded), so they fall at every phase of the app's tick.
///
/// 1. The path without the app: `parec --latency-msec=5` on the monitor, each burst timed to the
///    first read of `parec`'s output that holds it: what the method and the server cost.
/// 2. The release app, detached in tmux at 80×24, on that device, with
///    `VOICEMEMO_FRAME_LOG`: each burst timed to the first frame drawn after it whose meter
///    peak is at least −20 dBFS (`FrameLogLine.first`); then the app's CPU while it meters
///    the sink's silence for 30 s. `VOICEMEMO_BENCH_BEFORE=PATH` runs another build's
///    `voicememo` the same way after it.
/// 3. `voicememo record` from the same device for 60 s (`VOICEMEMO_BENCH_LATENCY_SECONDS`; 0
///    skips it): its overrun count. `VOICEMEMO_BENCH_LATENCY_BURSTS` sets the bursts (20).
struct LatencyBenchmark {
    let bursts: Int
    let recordSeconds: Int
    /// How long the app's CPU is measured after the bursts, metering the sink's silence.
    var cpuSeconds = 30
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
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        print("latency: a \(Int(Self.burstDuration * 1000)) ms burst at −6 dBFS into a null sink → the first frame showing ≥ \(Int(Self.levelDB)) dBFS; \(bursts) bursts (release build)")
        // Everything started is stopped before the exit: a daemon left behind would outlive the bench.
        var medians: [Double] = []
        var overruns = 0
        for kind in SoundServer.Kind.allCases {
            guard let measured = measure(kind, binary: binary, work: work + "/" + kind.rawValue) else {
                try? FileManager.default.removeItem(atPath: work)
                exit(1)
            }
            medians.append(measured.median)
            overruns += measured.overruns
        }
        try? FileManager.default.removeItem(atPath: work)
        let met = medians.allSatisfy { $0 <= 0.05 } && overruns == 0
        print("goal: median ≤ 50 ms through each server, no overrun: \(met ? "PASS" : "MISS")")
    }

    /// The three phases through one server: the app's median and `record`'s overruns (a
    /// `record` that did not run counts as one), or `nil` when something else did not run.
    private func measure(_ kind: SoundServer.Kind, binary: String, work: String) -> (median: Double, overruns: Int)? {
        for tool in ["/usr/bin/pacat", "/usr/bin/parec", "/usr/bin/pactl", "/usr/bin/tmux"] + kind.programs
        where !FileManager.default.isExecutableFile(atPath: tool) {
            printToStandardError("voicememo-bench latency: \(tool) is missing (Debian: \(kind.packages) pulseaudio-utils libasound2-plugins tmux)")
            return nil
        }
        try? FileManager.default.createDirectory(atPath: work + "/home", withIntermediateDirectories: true)
        guard let server = SoundServer(kind, directory: work + "/server", sink: Self.sink, rate: Self.rate) else { return nil }
        defer { server.stop() }
        print("\(server.name):")
        let alsaConfig = work + "/alsa.conf"
        let definition = "pcm.\(Self.device) { type pulse server \"\(server.address)\" device \"\(Self.sink).monitor\" }\n"
        _ = FileManager.default.createFile(atPath: alsaConfig, contents: Data(definition.utf8))
        var environment = [
            "PATH": "/usr/bin:/bin", "PULSE_SERVER": server.address, "HOME": work + "/home", "LANG": "C.UTF-8",
            "ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:" + alsaConfig, "TERM": "xterm-256color",
        ]
        guard let player = SpawnedProcess(
            "/usr/bin/pacat",
            ["--playback", "--raw", "--format=s16le", "--rate=\(Self.rate)", "--channels=2", "--latency-msec=10",
             "--device=\(Self.sink)", "--client-name=voicememo-bench"],
            environment: environment, pipeInput: true, log: work + "/pacat.log")
        else {
            printToStandardError("voicememo-bench latency: pacat did not start")
            return nil
        }
        defer { player.stop() }
        usleep(500_000)
        let schedule = Self.spacings(count: bursts)
        print("  the capture (`ALSACaptureSource` on the device, as the app opens it): \(Self.setup(alsaConfig))")

        // 1. The server's own path, read by parec.
        guard let serverPath = measureWithoutTheApp(player: player, schedule: schedule, environment: environment, work: work)
        else { return nil }
        printRow("without the app (parec --latency-msec=5)", serverPath.latencies, of: bursts)

        // 2. The app.
        environment["VOICEMEMO_HOME"] = work + "/library"
        environment["XDG_CONFIG_HOME"] = work + "/config"
        environment["VOICEMEMO_FRAME_LOG"] = work + "/frames.log"
        var builds = [("the app", binary)]
        if let before = ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_BEFORE"] { builds.append(("the other build", before)) }
        var median: Double?
        for (label, path) in builds {
            guard let app = measureTheApp(binary: path, player: player, schedule: schedule, environment: environment, work: work)
            else { return nil }
            printRow("\(label), to its frame", app.latencies, of: bursts)
            print("  \(label): a frame every \(fixed(app.frameInterval * 1000, decimals: 1)) ms (median); "
                + "CPU \(fixed(app.cpuPercent, decimals: 2)) % of one core metering the sink's silence for \(cpuSeconds) s")
            median = median ?? Self.percentile(app.latencies, 0.5)
        }

        // 3. Overruns over a minute of recording from the same device.
        var overruns: Int?
        if recordSeconds > 0 {
            overruns = countOverruns(binary: binary, environment: environment, work: work)
            print("  `record` for \(recordSeconds) s from the device: \(overruns.map { "\($0) overruns" } ?? "did not run")")
        }
        return (median ?? .infinity, recordSeconds > 0 ? overruns ?? 1 : 0)
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
        /// The app's CPU while metering, after the bursts.
        var cpuPercent = 0.0
        /// The median time between two frames drawn over the bursts.
        var frameInterval = 0.0
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
        let written = playBursts(player, schedule: schedule)
        usleep(500_000)
        let cpuBefore = processCPUSeconds(pid) ?? 0
        let from = monotonicNow()
        usleep(UInt32(cpuSeconds) * 1_000_000)
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
        let drawn = frames.map(\.time).filter { $0 > (written.first ?? 0) && $0 < (written.last ?? 0) }
        let intervals = zip(drawn.dropFirst(), drawn).map { $0.0 - $0.1 }
        return Result(latencies: latencies, cpuPercent: cpu, frameInterval: Self.percentile(intervals, 0.5) ?? .nan)
    }

    /// The period and buffer the capture negotiates on the device, in frames and ms.
    static func setup(_ alsaConfig: String) -> String {
        let settings = RecordingSettings()
        let format = StreamFormat(sampleRate: settings.sampleRate, channels: settings.channels, sampleFormat: settings.preferredSampleFormat)
        guard let source = try? ALSACaptureSource(device: device, format: format, configFile: alsaConfig) else { return "unknown" }
        defer { source.close() }
        let ms = { (frames: Int) in fixed(Double(frames) * 1000 / Double(source.format.sampleRate), decimals: 1) }
        return "period \(source.setup.periodFrames) frames (\(ms(source.setup.periodFrames)) ms), "
            + "buffer \(source.setup.bufferFrames) (\(ms(source.setup.bufferFrames)) ms)"
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

/// A private sound server with one null sink, reached only through its socket: PulseAudio
/// (Tests/pulse-daemon.sh), or PipeWire with WirePlumber and PipeWire's PulseAudio server
/// (Tests/pipewire-daemon.sh `start`, then `pulse`). The null sink is loaded through the
/// PulseAudio protocol in both.
final class SoundServer {
    enum Kind: String, CaseIterable {
        case pulseAudio = "pulseaudio"
        case pipeWire = "pipewire"

        var programs: [String] {
            switch self {
            case .pulseAudio: ["/usr/bin/pulseaudio"]
            case .pipeWire: ["/usr/bin/pipewire", "/usr/bin/wireplumber"]
            }
        }

        var packages: String {
            switch self {
            case .pulseAudio: "pulseaudio"
            case .pipeWire: "pipewire pipewire-bin wireplumber"
            }
        }
    }

    let name: String
    let address: String
    private let kind: Kind
    private let directory: String

    private static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests").path

    init?(_ kind: Kind, directory: String, sink: String, rate: Int) {
        self.kind = kind
        self.directory = directory
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let environment = ["PATH": "/usr/bin:/bin"]
        let script = Self.scripts + "/" + (kind == .pulseAudio ? "pulse-daemon.sh" : "pipewire-daemon.sh")
        let started = ChildProcess.run("/bin/bash", [script, "start", directory, String(getpid())], environment: environment, output: directory + "/start.out")
        guard started?.status == 0, let printed = try? String(contentsOfFile: directory + "/start.out", encoding: .utf8) else {
            printToStandardError("voicememo-bench latency: \(script) did not start the server")
            return nil
        }
        switch kind {
        case .pulseAudio:
            address = printed.trimmingCharacters(in: .whitespacesAndNewlines)
            name = "PulseAudio \(Self.version("/usr/bin/pulseaudio", directory))"
        case .pipeWire:
            let pulse = ChildProcess.run(
                "/bin/bash", [script, "pulse", directory], environment: environment, output: directory + "/pulse.out")
            guard pulse?.status == 0, let printed = try? String(contentsOfFile: directory + "/pulse.out", encoding: .utf8),
                let line = printed.split(separator: "\n").last, line.hasPrefix("unix:")
            else {
                printToStandardError("voicememo-bench latency: PipeWire's PulseAudio server did not start (\(directory)/pipewire-pulse.log)")
                _ = ChildProcess.run("/bin/bash", [script, "stop", directory], environment: environment)
                return nil
            }
            address = String(line)
            name = "PipeWire \(Self.version("/usr/bin/pipewire", directory)) (its PulseAudio server)"
        }
        let loaded = ChildProcess.run(
            "/usr/bin/pactl", ["load-module", "module-null-sink", "sink_name=\(sink)", "rate=\(rate)", "channels=2"],
            environment: ["PATH": "/usr/bin:/bin", "PULSE_SERVER": address], output: directory + "/pactl.out")
        guard loaded?.status == 0 else {
            printToStandardError("voicememo-bench latency: \(name) did not load a null sink")
            stop()
            return nil
        }
    }

    /// The first line `PROGRAM --version` prints, less the program's name.
    private static func version(_ program: String, _ directory: String) -> String {
        let output = directory + "/version.out"
        _ = ChildProcess.run(program, ["--version"], environment: ["PATH": "/usr/bin:/bin"], output: output)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").last { $0.contains("ompiled with") || $0.contains("pulseaudio") }
            .map { String($0.split(separator: " ").last ?? "") } ?? "?"
    }

    func stop() {
        let script = Self.scripts + "/" + (kind == .pulseAudio ? "pulse-daemon.sh" : "pipewire-daemon.sh")
        _ = ChildProcess.run("/bin/bash", [script, "stop", directory], environment: ["PATH": "/usr/bin:/bin"])
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

extension SoundServer {
    /// A private PulseAudio for the benchmark `name` in `work` (its default sink `desk` at
    /// `rate`), with `modules` loaded (`pactl load-module` arguments each), and the environment
    /// its programs run in: the server's address, and a home, library, config and runtime
    /// folder of their own in `work`. Nil, said on standard error, when any of it fails.
    static func forBenchmark(
        _ name: String, in work: String, rate: Int, modules: [[String]]
    ) -> (server: SoundServer, environment: [String: String])? {
        guard let server = SoundServer(.pulseAudio, directory: work + "/server", sink: "desk", rate: rate) else { return nil }
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = server.address
        environment["HOME"] = work + "/home"
        environment["VOICEMEMO_HOME"] = work + "/library"
        environment["XDG_CONFIG_HOME"] = work + "/config"
        environment["XDG_RUNTIME_DIR"] = work + "/run"
        for folder in ["home", "library", "config", "run"] {
            try? FileManager.default.createDirectory(atPath: work + "/" + folder, withIntermediateDirectories: true)
        }
        for module in modules {
            guard ChildProcess.run("/usr/bin/pactl", ["load-module"] + module, environment: environment)?.status == 0 else {
                printToStandardError("voicememo-bench \(name): pactl load-module \(module[0]) failed")
                server.stop()
                return nil
            }
        }
        return (server, environment)
    }
}

extension SpawnedProcess {
    /// `paplay` playing `file` into `sink` over and over (logging to `log`) for the benchmark
    /// `name`, a second in; nil, said on standard error, when it did not start.
    static func loopingPlayer(_ name: String, file: String, sink: String, environment: [String: String], log: String)
        -> SpawnedProcess?
    {
        guard let player = SpawnedProcess(
            "/bin/bash", ["-c", "while paplay --latency-msec=20 -d \(sink) '\(file)'; do :; done"], environment: environment,
            log: log)
        else {
            printToStandardError("voicememo-bench \(name): paplay did not start")
            return nil
        }
        sleep(1)
        return player
    }
}

extension ChildProcess {
    /// Runs every command at once, each waited for on a thread of its own started from here (a
    /// Dispatch worker blocks signals, and a child spawned there inherits that: timeout's alarm
    /// and its SIGTERM never arrive); their results in order, nil for one that did not run.
    static func runSideBySide(_ commands: [(path: String, arguments: [String])], environment: [String: String])
        -> [ChildProcess.Result?]
    {
        let results = Mutex<[ChildProcess.Result?]>(Array(repeating: nil, count: commands.count))
        let group = DispatchGroup()
        for (index, command) in commands.enumerated() {
            group.enter()
            Thread {
                let result = ChildProcess.run(command.path, command.arguments, environment: environment)
                results.withLock { $0[index] = result }
                group.leave()
            }.start()
        }
        group.wait()
        return results.withLock { $0 }
    }
}
