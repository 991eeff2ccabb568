import Foundation
import MemoLibrary
import SoundFiles

/// `voicememo-bench library`: opening a library and listing it, at 1 000 and 10 000 memos.
///
/// Each memo is a real row made the way `voicememo record` makes one (`beginRecording`, a file,
/// `finishRecording`), and each has its own small real WAV (0.1 s, mono, 4.8 kB): opening reads
/// the folder and stats every file. Measured: opening (index, schema check, start-up maintenance),
/// opening with `FileCheck.names` (no `stat` per file, as `list` does), `memos()` (the rows
/// `list --json` prints), and the `voicememo list --json` process itself.
struct LibraryBenchmark {
    static let sizes = [1_000, 10_000]
    static let rounds = 5
    static let goalSeconds = 0.100

    func run() {
        var perMemo: [Double] = []
        print("Memo library, best of \(Self.rounds) rounds (median)")
        for size in Self.sizes {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let fillStart = ContinuousClock.now
            guard fill(folder: folder, count: size) else { return }
            let filled = ContinuousClock.now - fillStart
            var open = Measurement(name: "open", bytesPerRun: 0)
            var openNames = Measurement(name: "open, names only", bytesPerRun: 0)
            var list = Measurement(name: "memos()", bytesPerRun: 0)
            var process = Measurement(name: "voicememo list --json", bytesPerRun: 0)
            var listed = 0
            for _ in 0..<Self.rounds {
                var library: MemoLibrary?
                open.time { library = try? MemoLibrary(folder: folder, now: Date()) }
                list.time { listed = (try? library?.memos().count) ?? 0 }
                library?.close()
                openNames.time { library = try? MemoLibrary(folder: folder, now: Date(), fileCheck: .names) }
                library?.close()
                process.time { runList(folder: folder) }
            }
            print("\(size) memos (made in \(fixed(seconds(filled), decimals: 1)) s), \(listed) listed:")
            for runs in [open, openNames, list, process] {
                let best = runs.seconds.min() ?? 0
                let median = runs.seconds.sorted()[runs.seconds.count / 2]
                let verdict = runs.name == "memos()" ? "" : (best <= Self.goalSeconds ? "  PASS (≤ 100 ms)" : "  MISS (> 100 ms)")
                print("  \(runs.name.padding(to: 24))\(fixed(best * 1000, decimals: 1).leftPadding(to: 7)) ms "
                    + "(\(fixed(median * 1000, decimals: 1))), \(fixed(best / Double(size) * 1e6, decimals: 2)) µs/memo\(verdict)")
            }
            perMemo.append(((open.seconds.min() ?? 0) + (process.seconds.min() ?? 0)) / Double(size))
        }
        if let first = perMemo.first, let last = perMemo.last, first > 0 {
            let ratio = last / first
            print("cost per memo (open + list process), 10 000 vs 1 000: \(fixed(ratio, decimals: 2))×"
                + (ratio <= 1.5 ? "  PASS (flat: ≤ 1.5×)" : "  MISS (> 1.5×)"))
        }
    }

    /// Makes `count` memos with distinct titles and dates, each with its own WAV file.
    private func fill(folder: String, count: Int) -> Bool {
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 1)
        do {
            let library = try MemoLibrary(folder: folder, now: start)
            defer { library.close() }
            let template = folder + "/template.tmp"
            let writer = try SoundFileWriter(path: template, settings: settings)
            let silence = [Int16](repeating: 0, count: 4800)
            try silence.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                try writer.write(base, frames: 4800, sampleFormat: .int16)
            }
            try writer.close()
            let bytes = try Data(contentsOf: URL(fileURLWithPath: template))
            try FileManager.default.removeItem(atPath: template)
            for index in 0..<count {
                let recording = try library.beginRecording(
                    title: "Memo number \(index) — notes 会議", settings: settings,
                    at: start.addingTimeInterval(Double(index) * 61))
                try bytes.write(to: URL(fileURLWithPath: recording.memo.path))
                try library.finishRecording(recording, peakDB: -12)
            }
            return true
        } catch {
            printToStandardError("voicememo-bench: could not make the library: \(error)")
            return false
        }
    }

    /// Runs the `voicememo` next to this benchmark (or `$VOICEMEMO_BENCH_BINARY`, to compare
    /// builds with the same harness): `list --json` into /dev/null.
    ///
    /// Through `ChildProcess` (`posix_spawn`, `wait4`): Foundation's `Process` added 35–40 ms of
    /// its own to each run, more than the work measured at 1 000 memos.
    private func runList(folder: String) {
        let binary = ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_BINARY"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("voicememo").path
        let result = ChildProcess.run(binary, ["list", "--json"], environment: ["VOICEMEMO_HOME": folder, "PATH": "/usr/bin:/bin"])
        if result?.status != 0 {
            printToStandardError("voicememo-bench: \(binary) list --json failed (status \(result.map { String($0.status) } ?? "not started"))")
        }
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
