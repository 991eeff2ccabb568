import Foundation
import MemoLibrary
import SoundFiles

/// `voicememo-bench gaps`: the longest time between two frames of the running app while
/// slow work happens, per operation, and how long `s` takes to bring up the title prompt.
///
/// The release `voicememo` runs in tmux at 80×24 with `VOICEMEMO_FRAME_LOG` (one line per
/// frame drawn, `CLOCK_MONOTONIC`), on the unpaced ALSA file device of Resources/alsa (an
/// hour of audio in seconds). The bench presses keys, notes the same clock when it does,
/// watches the pane for the operation's result, and afterwards reads the frame log: the
/// longest gap is the longest stretch without a frame from the key to a second after the
/// result. Operations: stop of a long WAV, MP3 and Ogg Vorbis recording (and stop → title
/// prompt), rename, delete and purge of the long WAV memo, starting playback of a long
/// FLAC, switching input, and a rename (with its reload) in a 10 000-memo library, whose
/// start-up is timed too. `VOICEMEMO_BENCH_BEFORE=PATH` runs another build (main before a
/// change, with the same frame log) through the same steps, side by side;
/// `VOICEMEMO_BENCH_MINUTES` sets the recordings' length (60).
struct GapBenchmark {
    let minutes = Int(ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_MINUTES"] ?? "") ?? 60
    let goalGap = 0.100

    struct Build {
        let name: String
        let binary: String
    }

    func run() {
        let after = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        var builds = [Build(name: "after", binary: after)]
        if let before = ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_BEFORE"] {
            builds.insert(Build(name: "before", binary: before), at: 0)
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-gaps-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        print("gaps: the app in tmux at 80×24, \(minutes) min recordings from an unpaced ALSA file device")
        guard prepare(work: work, binary: after) else { exit(1) }

        var results: [[String: Double]] = []
        var order: [String] = []
        for build in builds {
            print("  running \(build.name): \(build.binary)")
            var figures: [String: Double] = [:]
            for session in sessions() {
                let measured = session(build, work)
                for (name, value) in measured {
                    if !order.contains(name) { order.append(name) }
                    figures[name] = value
                }
            }
            results.append(figures)
        }
        print("  " + "operation".padding(to: 40) + builds.map { $0.name.leftPadding(to: 12) }.joined())
        for name in order {
            let cells = results.map { figures in figures[name].map { fixed($0, decimals: 3) + " s" } ?? "—" }
            print("  " + name.padding(to: 40) + cells.map { $0.leftPadding(to: 12) }.joined())
        }
        if let last = results.last {
            let gaps = order.filter { $0.hasPrefix("longest gap") }.compactMap { last[$0] }
            let worst = gaps.max() ?? 0
            print("goal: longest gap ≤ 100 ms in every operation (\(builds.last?.name ?? "")): \(worst <= goalGap ? "PASS" : "MISS") (worst \(fixed(worst, decimals: 3)) s)")
            let prompts = order.filter { $0.hasPrefix("stop → title prompt") }.compactMap { last[$0] }
            print("goal: stop → title prompt ≤ 1 s: \((prompts.max() ?? 0) <= 1 ? "PASS" : "MISS") (worst \(fixed(prompts.max() ?? 0, decimals: 3)) s)")
        }
    }

    // MARK: Sessions

    private func sessions() -> [(Build, String) -> [(String, Double)]] {
        [
            { build, work in longWAVSession(build, work: work) },
            { build, work in stopSession(build, work: work, format: "mp3", label: "MP3") },
            { build, work in stopSession(build, work: work, format: "ogg", label: "Ogg Vorbis") },
            { build, work in bigLibrarySession(build, work: work) },
        ]
    }

    /// The capture device, a library with a long FLAC memo, and a 10 000-memo library.
    private func prepare(work: String, binary: String) -> Bool {
        do {
            var noise = [Int16](repeating: 0, count: 48000 * 2 * 4)
            var state: UInt64 = 0x5EED
            for index in noise.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                noise[index] = Int16(truncatingIfNeeded: Int64(state >> 48) - 32768) / 8
            }
            try noise.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: work + "/noise.raw")) }
            let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Resources/alsa/test-devices.conf.in")
            let text = try String(contentsOf: template, encoding: .utf8)
                .replacingOccurrences(of: "@CAPTURE_FILE@", with: work + "/noise.raw")
                .replacingOccurrences(of: "@PLAYBACK_FILE@", with: "/dev/null")
            try Data(text.utf8).write(to: URL(fileURLWithPath: work + "/devices.conf"))
            // No transcription: `record` would transcribe the hour before it returns (≈ 20 CPU
            // minutes), and the app's background job would run beside what is measured.
            let config = work + "/config/voicememo"
            try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
            try Data("transcribe = manual\n".utf8).write(to: URL(fileURLWithPath: config + "/config"))
        } catch {
            printToStandardError("voicememo-bench gaps: cannot write the test device: \(error)")
            return false
        }
        let flacLibrary = work + "/flac-library"
        try? FileManager.default.createDirectory(atPath: flacLibrary, withIntermediateDirectories: true)
        var environment = baseEnvironment(work: work, library: flacLibrary)
        environment.removeValue(forKey: "VOICEMEMO_FRAME_LOG")
        let recorded = ChildProcess.run(
            binary,
            ["record", "--source", "alsa:voicememo_capture", "--format", "flac", "--duration", "\(minutes * 60)",
             "--title", "Long FLAC"],
            environment: environment)
        guard recorded?.status == 0 else {
            printToStandardError("voicememo-bench gaps: could not record the long FLAC (status \(String(describing: recorded?.status)))")
            return false
        }
        guard fillLibrary(folder: work + "/big-library", count: 10_000) else { return false }
        return true
    }

    /// Stop, rename, delete, purge of a long WAV; playback of the long FLAC; switching input.
    private func longWAVSession(_ build: Build, work: String) -> [(String, Double)] {
        let library = work + "/\(build.name)-wav"
        copy(work + "/flac-library", to: library)
        defer { try? FileManager.default.removeItem(atPath: library) }
        guard let app = AppPane(binary: build.binary, arguments: "--source alsa:voicememo_capture --format wav --device null",
            environment: baseEnvironment(work: work, library: library), work: work, name: "\(build.name)-wav")
        else { return [] }
        guard app.waitFor("Listening to", timeout: 30) != nil, record(app) else { return [] }
        let stop = app.press("s")
        guard app.waitFor("Title: ", timeout: 900) != nil else { return [] }
        let stopped = app.now()
        app.press("C-u")
        app.type("Bench rename")
        let rename = app.press("Enter")
        _ = app.waitFor("“Bench rename”", timeout: 60)
        // The prompt comes at the stop: the memo joins the table (selected) once it is saved.
        _ = app.waitFor("▶ Bench rename", timeout: 900)
        let renamed = app.settle()
        // Export as FLAC: the whole memo converted on the runner.
        app.press("E")
        _ = app.waitFor("Export to: ", timeout: 10)
        app.press("C-u")
        app.type(work + "/\(build.name)-export.flac")
        let export = app.press("Enter")
        _ = app.waitFor("Exported “Bench rename”", timeout: 900)
        let exported = app.settle()
        try? FileManager.default.removeItem(atPath: work + "/\(build.name)-export.flac")
        app.press("d")
        _ = app.waitFor("(y/N)", timeout: 10)
        let delete = app.press("y")
        _ = app.waitFor("Moved “Bench rename”", timeout: 60)
        let deleted = app.settle()
        app.press("t")
        _ = app.waitFor("Bench rename", timeout: 10)
        app.press("p")
        _ = app.waitFor("(y/N)", timeout: 10)
        let purge = app.press("y")
        _ = app.waitFor("Purged", timeout: 60)
        let purged = app.settle()
        app.press("Escape")
        _ = app.waitFor("Long FLAC", timeout: 10)
        let play = app.press("Enter")
        _ = app.waitFor("Playing “Long FLAC”", timeout: 60)
        let playing = app.settle()
        // The null device is not paced: the memo may have finished already.
        if app.waitFor("Finished playing", timeout: 0.2, quietly: true) == nil {
            app.press("s")
            _ = app.waitFor("Stopped “Long FLAC”", timeout: 30)
        }
        // The picker lists the ALSA devices first (the bench's config adds some), then the two
        // tones: G selects the last, which is the one switched to.
        app.press("i")
        _ = app.waitFor("Choose an input", timeout: 30)
        // G once the list is in (until then the picker says "Looking for inputs…").
        var selected = false
        for _ in 0..<30 where !selected {
            app.press("G")
            selected = app.waitFor("▶ tone:1000@-3", timeout: 1, quietly: true) != nil
        }
        guard selected else { return [] }
        let switchInput = app.press("Enter")
        guard app.waitFor("Listening to tone:1000@-3", timeout: 60) != nil else { return [] }
        let switched = app.settle()
        guard let frames = app.quit() else { return [] }
        let m = "\(minutes) min"
        return [
            ("longest gap: stop, \(m) WAV", frames.longestGap(from: stop, to: stopped)),
            ("stop → title prompt, \(m) WAV", frames.firstPrompt(after: stop)),
            ("longest gap: rename, \(m) WAV", frames.longestGap(from: rename, to: renamed)),
            ("longest gap: export as FLAC, \(m) WAV", frames.longestGap(from: export, to: exported)),
            ("longest gap: delete, \(m) WAV", frames.longestGap(from: delete, to: deleted)),
            ("longest gap: purge, \(m) WAV", frames.longestGap(from: purge, to: purged)),
            ("longest gap: play, \(m) FLAC", frames.longestGap(from: play, to: playing)),
            ("longest gap: switch input", frames.longestGap(from: switchInput, to: switched)),
        ]
    }

    /// Stop of a long recording in `format` (encoded from its intermediate at stop, before wt-encode).
    private func stopSession(_ build: Build, work: String, format: String, label: String) -> [(String, Double)] {
        let library = work + "/\(build.name)-\(format)"
        try? FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: library) }
        guard let app = AppPane(binary: build.binary, arguments: "--source alsa:voicememo_capture --format \(format)",
            environment: baseEnvironment(work: work, library: library), work: work, name: "\(build.name)-\(format)")
        else { return [] }
        guard app.waitFor("Listening to", timeout: 30) != nil, record(app) else { return [] }
        let stop = app.press("s")
        guard app.waitFor("Title: ", timeout: 900) != nil else { return [] }
        let stopped = app.now()
        // Named, then the rest of the save (the encoder's backlog) runs under the table: the
        // saved memo joins the table when it is complete.
        usleep(400_000)
        app.type("Saved \(label)")
        app.press("Enter")
        guard app.waitFor("▶ Saved \(label)", timeout: 1800) != nil else { return [] }
        let saved = app.now()
        guard let frames = app.quit() else { return [] }
        return [
            ("longest gap: stop, \(minutes) min \(label)", frames.longestGap(from: stop, to: stopped)),
            ("stop → title prompt, \(minutes) min \(label)", frames.firstPrompt(after: stop)),
            ("longest gap: the whole save, \(minutes) min \(label)", frames.longestGap(from: stop, to: saved)),
            ("stop → saved in the table, \(minutes) min \(label)", saved - stop),
        ]
    }

    /// Start-up and a rename (the table reloads) in a 10 000-memo library.
    private func bigLibrarySession(_ build: Build, work: String) -> [(String, Double)] {
        let library = work + "/\(build.name)-big"
        copy(work + "/big-library", to: library)
        defer { try? FileManager.default.removeItem(atPath: library) }
        let launched = monotonicNow()
        guard let app = AppPane(binary: build.binary, arguments: "--source tone:440@-12",
            environment: baseEnvironment(work: work, library: library), work: work, name: "\(build.name)-big")
        else { return [] }
        guard app.waitFor("Memo number 9999", timeout: 60) != nil else { return [] }
        app.press("e")
        _ = app.waitFor("Title: ", timeout: 10)
        app.press("C-u")
        app.type("Renamed in a big library")
        let rename = app.press("Enter")
        _ = app.waitFor("Renamed to", timeout: 60)
        let renamed = app.settle()
        guard let frames = app.quit() else { return [] }
        return [
            ("start-up to first frame, 10 000 memos", (frames.times.first ?? launched) - launched),
            ("start-up to the library listed", (frames.firstIdle() ?? launched) - launched),
            ("longest gap: rename + reload, 10 000", frames.longestGap(from: rename, to: renamed)),
        ]
    }

    // MARK: Helpers

    /// Records until the timer shows `minutes` of audio.
    private func record(_ app: AppPane) -> Bool {
        app.press("r")
        let timer = String(format: "● REC  %02d:%02d:", minutes / 60, minutes % 60)
        guard app.waitFor(timer, timeout: 1800) != nil else {
            printToStandardError("voicememo-bench gaps: the recording never reached \(timer)")
            return false
        }
        return true
    }

    private func baseEnvironment(work: String, library: String) -> [String: String] {
        [
            "VOICEMEMO_HOME": library, "XDG_CONFIG_HOME": work + "/config", "HOME": work,
            "ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:" + work + "/devices.conf",
            "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
            "VOICEMEMO_FRAME_LOG": work + "/frames.log",
        ]
    }

    private func copy(_ source: String, to destination: String) {
        try? FileManager.default.removeItem(atPath: destination)
        try? FileManager.default.copyItem(atPath: source, toPath: destination)
    }

    /// `count` memos, each a real row with its own small WAV (as `voicememo-bench library` makes them).
    private func fillLibrary(folder: String, count: Int) -> Bool {
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
                    title: "Memo number \(index)", settings: settings, at: start.addingTimeInterval(Double(index) * 61))
                try bytes.write(to: URL(fileURLWithPath: recording.memo.path))
                try library.finishRecording(recording, peakDB: -12)
            }
            return true
        } catch {
            printToStandardError("voicememo-bench gaps: could not make the library: \(error)")
            return false
        }
    }
}

/// `CLOCK_MONOTONIC` seconds: the clock the app's frame log uses.
func monotonicNow() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The frames an app drew, from its `VOICEMEMO_FRAME_LOG`.
struct FrameTimes {
    var times: [Double] = []
    var work: [Int] = []
    var prompts: [Bool] = []

    init(path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3, let time = Double(fields[0]) else { continue }
            times.append(time)
            work.append(Int(fields[1]) ?? 0)
            prompts.append(fields[2] == "1")
        }
    }

    /// The longest stretch without a frame between `start` (a key) and `end`.
    func longestGap(from start: Double, to end: Double) -> Double {
        var longest = 0.0
        var previous = start
        for time in times where time > start {
            longest = max(longest, time - previous)
            previous = time
            if time > end { break }
        }
        return longest
    }

    /// The first frame with no work in flight (the input and library open); a build without
    /// an effect runner logs 0 from its first frame, drawn once both were open.
    func firstIdle() -> Double? {
        zip(times, work).first { $0.1 == 0 }?.0
    }

    /// Seconds from `start` to the first frame showing the title prompt.
    func firstPrompt(after start: Double) -> Double {
        for (time, prompt) in zip(times, prompts) where time > start && prompt { return time - start }
        return .nan
    }
}

/// The app in a detached tmux session of its own, with keys in and the pane's text out.
final class AppPane {
    private let socket: String
    private let log: String
    private let output: String

    init?(binary: String, arguments: String, environment: [String: String], work: String, name: String) {
        socket = work + "/tmux-\(name)"
        log = environment["VOICEMEMO_FRAME_LOG"] ?? work + "/frames.log"
        output = work + "/tmux-\(name).out"
        try? FileManager.default.removeItem(atPath: log)
        let variables = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let command = "env \(variables) '\(binary)' \(arguments); echo EXIT=$?; sleep 600"
        guard tmux(["-f", "/dev/null", "new-session", "-d", "-s", "bench", "-x", "80", "-y", "24", command]) != nil else {
            printToStandardError("voicememo-bench: the app in tmux: tmux did not start")
            return nil
        }
    }

    deinit {
        _ = tmux(["kill-server"])
    }

    func now() -> Double { monotonicNow() }

    /// The app's process: the child of the pane's shell (`env` execs the app).
    func appPID() -> Int32? {
        guard let text = tmux(["display", "-p", "-t", "bench", "#{pane_pid}"]),
            let shell = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        else { return nil }
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// Sends a tmux key name; returns when it was sent.
    @discardableResult
    func press(_ key: String) -> Double {
        let time = monotonicNow()
        _ = tmux(["send-keys", "-t", "bench", key])
        return time
    }

    func type(_ text: String) {
        _ = tmux(["send-keys", "-t", "bench", "-l", text])
    }

    /// Waits until the pane shows `text`; returns the screen, or `nil` at the timeout.
    func waitFor(_ text: String, timeout: Double, quietly: Bool = false) -> String? {
        let deadline = monotonicNow() + timeout
        repeat {
            if let screen = tmux(["capture-pane", "-p", "-t", "bench"]), screen.contains(text) { return screen }
            usleep(20_000)
        } while monotonicNow() < deadline
        if !quietly { printToStandardError("voicememo-bench: the app in tmux: waited \(Int(timeout)) s for “\(text)”") }
        return nil
    }

    /// A second after a result appears: work the app still does beside it counts too.
    func settle() -> Double {
        usleep(1_000_000)
        return monotonicNow()
    }

    /// Quits (answering a question if one comes) and reads the frame log.
    func quit() -> FrameTimes? {
        press("q")
        let deadline = monotonicNow() + 600
        while monotonicNow() < deadline {
            let screen = tmux(["capture-pane", "-p", "-t", "bench"]) ?? ""
            if screen.contains("EXIT=") { return FrameTimes(path: log) }
            if screen.contains("(y/N)") { press("y") }
            usleep(50_000)
        }
        printToStandardError("voicememo-bench: the app in tmux: the app did not quit")
        return nil
    }

    private func tmux(_ arguments: [String]) -> String? {
        guard let result = ChildProcess.run(
            "/usr/bin/tmux", ["-S", socket] + arguments, environment: ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color"],
            output: output),
            result.status == 0
        else { return nil }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
}
