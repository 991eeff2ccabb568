import Foundation

/// `voicememo-bench ui`: what the full-screen app costs while it meters, and when idle.
///
/// The release `voicememo` runs in a detached tmux session at 80×24, as a person would see
/// it: (1) metering a test tone (the screen changes ~30 times a second) for 30 s, (2) with no
/// input open (nothing moves) for 10 s. CPU time comes from `/proc/PID/stat` (user + system)
/// over the window; bytes written to the terminal from `tmux pipe-pane`, beside the bytes of
/// one full redraw (a resize) for comparison.
struct UIBenchmark {
    let meteringSeconds = 30.0
    let idleSeconds = 10.0

    func run() {
        let voicememo = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-ui-\(getpid())")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        print("ui: the app in tmux at 80×24 (release build)")

        let metering = measure(voicememo, source: "tone:440@-12", seconds: meteringSeconds, work: work, redraw: true)
        let idle = measure(voicememo, source: "alsa:voicememo_bench_no_device", seconds: idleSeconds, work: work, redraw: false)
        guard let metering, let idle else {
            printToStandardError("voicememo-bench ui: could not run the app in tmux (is tmux installed?)")
            exit(1)
        }
        print("  metering a tone: \(fixed(metering.cpuPercent, decimals: 2)) % of one core, "
            + "\(fixed(metering.bytesPerSecond / 1000, decimals: 1)) kB/s to the terminal "
            + "(a full redraw is \(fixed(Double(metering.redrawBytes) / 1000, decimals: 1)) kB)")
        print("  idle, no input:  \(fixed(idle.cpuPercent, decimals: 2)) % of one core, "
            + "\(fixed(idle.bytesPerSecond, decimals: 0)) B/s to the terminal")
        print("goal: metering ≤ 1.5 % of one core: \(metering.cpuPercent <= 1.5 ? "PASS" : "MISS")")
    }

    struct Result {
        var cpuPercent: Double
        var bytesPerSecond: Double
        var redrawBytes: Int
    }

    private func measure(_ binary: String, source: String, seconds: Double, work: URL, redraw: Bool) -> Result? {
        let socket = work.appendingPathComponent("tmux-\(source.hashValue & 0xFFFF)").path
        let session = "bench"
        let home = work.appendingPathComponent("home-\(source.hashValue & 0xFFFF)").path
        let output = work.appendingPathComponent("pane-\(source.hashValue & 0xFFFF).out").path
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let command = "exec env VOICEMEMO_HOME='\(home)' TERM=xterm-256color LANG=C.UTF-8 '\(binary)' --source \(source)"
        guard tmux(socket, ["new-session", "-d", "-s", session, "-x", "80", "-y", "24", command]) else { return nil }
        defer { _ = tmux(socket, ["kill-server"]) }
        Thread.sleep(forTimeInterval: 2)
        guard let pidText = tmuxOutput(socket, ["display", "-p", "-t", session, "#{pane_pid}"]),
            let pid = Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        _ = tmux(socket, ["pipe-pane", "-t", session, "-o", "cat >> '\(output)'"])
        Thread.sleep(forTimeInterval: 0.5)
        let cpuBefore = cpuSeconds(pid)
        let bytesBefore = fileSize(output)
        let start = Date()
        Thread.sleep(forTimeInterval: seconds)
        let elapsed = Date().timeIntervalSince(start)
        let cpuAfter = cpuSeconds(pid)
        let bytesAfter = fileSize(output)
        var redrawBytes = 0
        if redraw {
            // A resize makes curses redraw every cell: the cost the diffing avoids.
            // Measured over 0.5 s each, less the steady metering traffic of that time.
            let steady = Int(Double(bytesAfter - bytesBefore) / elapsed * 0.5)
            _ = tmux(socket, ["resize-window", "-t", session, "-x", "81", "-y", "24"])
            Thread.sleep(forTimeInterval: 0.5)
            let beforeRedraw = fileSize(output)
            _ = tmux(socket, ["resize-window", "-t", session, "-x", "80", "-y", "24"])
            Thread.sleep(forTimeInterval: 0.5)
            redrawBytes = max(0, fileSize(output) - beforeRedraw - steady)
        }
        guard let cpuBefore, let cpuAfter else { return nil }
        return Result(
            cpuPercent: (cpuAfter - cpuBefore) / elapsed * 100,
            bytesPerSecond: Double(bytesAfter - bytesBefore) / elapsed,
            redrawBytes: redrawBytes)
    }

    private func cpuSeconds(_ pid: Int32) -> Double? {
        processCPUSeconds(pid)
    }

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Runs a tmux command. Spawned directly (not through Foundation's `Process`, whose
    /// wait can miss the exit of a client whose server it just started), with standard
    /// output in a file: the server that `new-session` starts inherits it.
    private func tmux(_ socket: String, _ arguments: [String]) -> Bool {
        tmuxOutput(socket, arguments) != nil
    }

    private func tmuxOutput(_ socket: String, _ arguments: [String]) -> String? {
        let output = URL(fileURLWithPath: socket).deletingLastPathComponent().appendingPathComponent("tmux.out").path
        guard let result = ChildProcess.run(
            "/usr/bin/tmux", ["-S", socket] + arguments, environment: ProcessInfo.processInfo.environment, output: output),
            result.status == 0
        else { return nil }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
}
