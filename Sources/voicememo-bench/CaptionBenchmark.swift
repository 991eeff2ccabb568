import Foundation
import MemoLibrary

/// `voicememo-bench captions`: what live captions cost the running app, side by side with the
/// same recording without them.
///
/// The release `voicememo` runs in tmux at 80×24 on read speech (pocketsphinx-testdata's
/// LibriVox clips, repeated) from a `file:` source, which plays at the rate of real time from
/// when the app opens it. Each run presses `r`, records `VOICEMEMO_BENCH_SECONDS` (180), stops
/// and saves; once with `captions = off`, once with `captions = on`. Per run:
/// - the longest gap between two frames while recording (`VOICEMEMO_FRAME_LOG`), and the 99th
///   percentile of the gaps;
/// - the app's CPU while recording (`/proc/PID/stat`), in % of one core;
/// - the memo's length beside the time between `r` and `s`: a capture held up by the
///   recogniser would fall behind the clock and record less;
/// - with captions on, the draft's lag (`VOICEMEMO_EVENT_LOG`): for each guess at the
///   utterance in progress the app received, the time from when the last audio it covers
///   arrived at the captioner's tap to when the loop took it (the next frame draws it). A guess
///   comes every `StreamingCaptions.guessInterval` (0.3 s) of audio, so a word's delay is at
///   most the lag plus that. (A settled utterance comes after its pause, with words the guesses
///   already showed.)
struct CaptionBenchmark {
    let seconds = Double(ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_SECONDS"] ?? "") ?? 180
    static let clips = "/usr/share/pocketsphinx/test/data/librivox"
    static let guessInterval = 0.3

    struct Run {
        var longestGap = 0.0
        var gap99 = 0.0
        var cpuPercent = 0.0
        var recorded = 0.0
        var wallClock = 0.0
        var lags: [Double] = []
        var captions = 0
    }

    func run() {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-captions-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        print("captions: the app in tmux at 80×24 recording \(Int(seconds)) s of read speech (LibriVox) in real time, captions off then on")
        guard let speech = makeSpeech(work: work) else {
            printToStandardError("voicememo-bench captions: needs sox and pocketsphinx-testdata")
            exit(1)
        }
        var runs: [Bool: Run] = [:]
        for captions in [false, true] {
            guard let run = record(binary: binary, speech: speech, captions: captions, work: work) else { exit(1) }
            runs[captions] = run
        }
        guard let off = runs[false], let on = runs[true] else { return }
        func row(_ name: String, _ run: Run) {
            print(
                "  \(name.padding(to: 13)) longest frame gap \(fixed(run.longestGap * 1000, decimals: 0)) ms, "
                    + "99th percentile \(fixed(run.gap99 * 1000, decimals: 0)) ms, CPU \(fixed(run.cpuPercent, decimals: 1)) % of a core, "
                    + "memo \(fixed(run.recorded, decimals: 2)) s for \(fixed(run.wallClock, decimals: 2)) s between r and s")
        }
        row("captions off:", off)
        row("captions on:", on)
        let lags = on.lags.sorted()
        guard !lags.isEmpty else {
            print("  no caption arrived")
            print("goal: words within 2 s: MISS")
            return
        }
        let p50 = lags[lags.count / 2]
        let p95 = lags[min(lags.count - 1, Int(Double(lags.count) * 0.95))]
        let worst = lags.last ?? 0
        print(
            "  draft lag over \(on.captions) guesses: median \(fixed(p50, decimals: 2)) s, 95th percentile \(fixed(p95, decimals: 2)) s, "
                + "longest \(fixed(worst, decimals: 2)) s (a word: + \(fixed(Self.guessInterval, decimals: 1)) s of audio at most)")
        let wordDelay = p95 + Self.guessInterval
        let keptUp = on.recorded >= on.wallClock - 0.2
        print("goal: words within 2 s (95th percentile lag + 0.3 s = \(fixed(wordDelay, decimals: 2)) s): \(wordDelay <= 2 ? "PASS" : "MISS")")
        print("goal: frame gaps under 100 ms with captions on: \(on.longestGap < 0.1 ? "PASS" : "MISS")")
        print("goal: the capture keeps up with captions on (memo ≥ time between r and s − 0.2 s): \(keptUp ? "PASS" : "MISS")")
    }

    /// The clips, each followed by a second of silence, repeated past the recording's length
    /// plus the app's start, as 48 kHz stereo WAV.
    private func makeSpeech(work: String) -> String? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: Self.clips).filter({ $0.hasSuffix(".wav") }).sorted(),
            !names.isEmpty
        else { return nil }
        let path = work + "/speech.wav"
        // About 7 s per clip with its pause.
        let repeats = Int((seconds + 30) / (7 * Double(names.count))) + 1
        let list = Array(repeating: names.map { Self.clips + "/" + $0 }, count: repeats).flatMap { $0 }
        let script = "set -e; cd '\(work)'; i=0; for f in \(list.map { "'\($0)'" }.joined(separator: " ")); do "
            + "i=$((i+1)); sox \"$f\" -r 48000 -c 2 part$i.wav pad 0 1; done; "
            + "sox $(ls part*.wav | sort -V) speech.wav; rm part*.wav"
        guard ChildProcess.run("/bin/bash", ["-c", script], environment: ProcessInfo.processInfo.environment)?.status == 0 else {
            return nil
        }
        return path
    }

    private func record(binary: String, speech: String, captions: Bool, work: String) -> Run? {
        let name = captions ? "on" : "off"
        let home = work + "/home-" + name
        let config = home + "/config"
        try? FileManager.default.createDirectory(atPath: config + "/voicememo", withIntermediateDirectories: true)
        let settings = "captions = \(captions ? "on" : "off")\ntranscribe = manual\n"
        _ = FileManager.default.createFile(atPath: config + "/voicememo/config", contents: Data(settings.utf8))
        let library = home + "/library"
        let frames = home + "/frames.log"
        let events = home + "/events.log"
        let environment = [
            "VOICEMEMO_HOME": library, "XDG_CONFIG_HOME": config, "HOME": home, "TERM": "xterm-256color", "LANG": "C.UTF-8",
            "PATH": "/usr/bin:/bin", "VOICEMEMO_FRAME_LOG": frames, "VOICEMEMO_EVENT_LOG": events,
        ]
        guard let app = AppPane(binary: binary, arguments: "--source file:\(speech)", environment: environment, work: home, name: name),
            app.waitFor("Listening to", timeout: 30) != nil
        else { return nil }
        let started = app.press("r")
        guard app.waitFor("● REC", timeout: 30) != nil, let pid = app.appPID() else { return nil }
        let cpuBefore = processCPUSeconds(pid)
        let cpuFrom = monotonicNow()
        Thread.sleep(forTimeInterval: seconds)
        let cpuAfter = processCPUSeconds(pid)
        let stopped = app.press("s")
        var run = Run()
        run.cpuPercent = ((cpuAfter ?? 0) - (cpuBefore ?? 0)) / (monotonicNow() - cpuFrom) * 100
        run.wallClock = stopped - started
        guard app.waitFor("Title:", timeout: 60) != nil else { return nil }
        app.press("Enter")
        guard app.waitFor("Saved", timeout: 60) != nil, let times = app.quit() else { return nil }
        let intervals = zip(times.times.dropFirst(), times.times).filter { $0.1 > started + 1 && $0.0 < stopped }.map { $0.0 - $0.1 }.sorted()
        run.longestGap = times.longestGap(from: started + 1, to: stopped)
        run.gap99 = intervals.isEmpty ? .nan : intervals[min(intervals.count - 1, Int(Double(intervals.count) * 0.99))]
        if let memo = try? MemoLibrary(folder: library, now: Date()), let memos = try? memo.memos() {
            run.recorded = memos.first?.duration ?? 0
            memo.close()
        }
        (run.lags, run.captions) = Self.lags(eventLog: events)
        return run
    }

    /// Each caption's lag from the event log: `captions_start TIME` (the tap attached), then
    /// `caption end=SECONDS … TIME` (the loop took a caption covering the audio to SECONDS).
    static func lags(eventLog: String) -> ([Double], Int) {
        guard let text = try? String(contentsOfFile: eventLog, encoding: .utf8) else { return ([], 0) }
        var start: Double?
        var lags: [Double] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let last = fields.last, let time = Double(last) else { continue }
            if fields.first == "captions_start" {
                start = time
            } else if fields.first == "caption", fields.contains("final=0"), let start,
                let end = fields.first(where: { $0.hasPrefix("end=") }).flatMap({ Double($0.dropFirst(4)) })
            {
                lags.append(time - start - end)
            }
        }
        return (lags, lags.count)
    }
}

/// User + system CPU seconds of a process, from /proc.
func processCPUSeconds(_ pid: Int32) -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
