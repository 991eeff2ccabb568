import Foundation

/// CPU time of one start of `voicememo`: `--version` and `list --json` on an empty library,
/// beside `arecord --version` and `sox --version` as peers (a C program each, linked with the
/// libraries of its trade).
///
/// Start-up is mostly the dynamic loader's work: every library the binary needs is found,
/// mapped and bound before `main`. The `voicememo` measured is the one beside this tool, or
/// `VOICEMEMO_BENCH_BINARY`; each command runs `VOICEMEMO_BENCH_RUNS` times (50 unless set),
/// the commands interleaved. CPU time is user + system of the child (`wait4`).
struct StartupBenchmark {
    static func binaryFromEnvironment() -> String {
        ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_BINARY"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
    }

    static func runsFromEnvironment() -> Int {
        ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_RUNS"].flatMap { Int($0) }.map { max(1, $0) } ?? 50
    }

    let voicememo: String
    let runs: Int

    func run() {
        guard FileManager.default.isExecutableFile(atPath: voicememo) else {
            printToStandardError("voicememo-bench startup: \(voicememo) is not an executable file")
            exit(1)
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-startup-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        var environment = ProcessInfo.processInfo.environment
        for (name, folder) in [("HOME", "home"), ("VOICEMEMO_HOME", "library"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config")] {
            let path = work.appendingPathComponent(folder).path
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            environment[name] = path
        }
        var commands: [(name: String, path: String, arguments: [String])] = [
            ("voicememo --version", voicememo, ["--version"]),
            ("voicememo list --json", voicememo, ["list", "--json"]),
        ]
        for peer in ["arecord", "sox"] {
            if let path = RecordBenchmark.which(peer) {
                commands.append(("\(peer) --version", path, ["--version"]))
            } else {
                printToStandardError("voicememo-bench startup: \(peer) is not installed (make deps installs it); left out")
            }
        }
        // The first run of each creates the empty library and warms the page cache.
        _ = ChildProcess.interleavedCPU(commands, rounds: 1, environment: environment, benchmark: "startup")
        print("startup: \(voicememo), an empty library, \(runs) runs of each command interleaved")
        let cpu = ChildProcess.interleavedCPU(commands, rounds: runs, environment: environment, benchmark: "startup")
        print("  " + "command".padding(to: 24) + "CPU ms (mean)".leftPadding(to: 15) + "CPU ms (median)".leftPadding(to: 17))
        for (index, command) in commands.enumerated() {
            let mean = cpu[index].reduce(0, +) / Double(cpu[index].count)
            print("  " + command.name.padding(to: 24) + fixed(1000 * mean, decimals: 1).leftPadding(to: 15)
                + fixed(1000 * ChildProcess.median(cpu[index]), decimals: 1).leftPadding(to: 17))
        }
    }
}
