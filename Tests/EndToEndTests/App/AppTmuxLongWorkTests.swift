import TestSupport
import Foundation
import SoundFiles
import Testing

/// The app stays live while slow work runs beside its loop: the meter moves and keys
/// answer while a long recording is being saved, and `q` then waits for the save.
///
/// The long save: an Ogg Vorbis memo recorded from an ALSA file device fed 400× faster than
/// real time (9 minutes of audio in 1.4 s). Its encoder runs beside the recording at nice 19
/// and cannot keep up with an input that fast, so at stop the writer encodes what is left:
/// Vorbis at 15–30× real time here, so the save takes seconds, and only longer on a loaded
/// machine (a lock on the index, tried first, was over before the checks on a loaded one: the
/// busy timeout is 5 s). The input's noise steps its level every 50 ms of audio, so the
/// meter's numbers change from frame to frame, and it never ends: a minute of it looped into a
/// FIFO the file device reads (``EndlessInput``). (An unpaced 20-minute file, before, was used
/// up within seconds once nothing recorded, and past its end the device repeats stale data.)
///
/// Where a check needs the save to last, the app runs on one CPU and ``BusyCPU`` keeps that
/// CPU busy at nice 0 while the checks run, with the app's session (its autogroup) at nice 10:
/// the backlog's encoder then gets about a tenth of it, as it would on a loaded machine (a 12-minute backlog was saved within
/// seconds on an idle one, before the checks of `m` and a second `s` ran; a clean-clone CI run
/// failed that way). The meter and the keys, at nice 0, still answer.
@Suite(.serialized) struct AppTmuxLongWorkTests {
    /// A sandbox whose ALSA device `voicememo_capture` delivers noise whose level jumps
    /// every 50 ms of audio (so the meter's numbers change from one frame to the next), 400×
    /// faster than real time, without end; the input feeds it while the test holds it.
    static func sandboxWithEndlessNoise() throws -> (VoiceMemoSandbox, EndlessInput) {
        let sandbox = try VoiceMemoSandbox()
        let source = sandbox.file("steps.raw")
        try Self.writeSteppedNoise(to: source, seconds: 60)
        let input = try EndlessInput(looping: source, into: sandbox.file("steps.fifo"), speed: 400, in: sandbox)
        try sandbox.installALSATestDevices(captureFile: input.fifo)
        return (sandbox, input)
    }

    /// Raw S16_LE stereo noise in 50 ms steps, each at a random level from −40 to −6 dBFS.
    static func writeSteppedNoise(to path: String, seconds: Int) throws {
        var generator = SplitMix64(seed: 0x5EED_F00D)
        func next() -> UInt64 { generator.next() >> 33 }
        let step = 2400
        var data = Data(count: seconds * 48000 * 4)
        data.withUnsafeMutableBytes { raw in
            let samples = raw.bindMemory(to: Int16.self)
            var gain = 0.1
            for frame in 0..<(samples.count / 2) {
                if frame % step == 0 { gain = pow(10, (-40 + Double(next() % 35)) / 20) }
                for channel in 0..<2 {
                    let noise = Double(Int64(next() % 65536) - 32768)
                    samples[frame * 2 + channel] = Int16(clamping: Int(noise * gain)).littleEndian
                }
            }
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Starts the app recording Ogg Vorbis and waits until the timer shows `minutes` of audio.
    static func recordLong(_ sandbox: VoiceMemoSandbox, minutes: Int, onCPU cpu: Int? = nil) throws -> AppTmuxSession {
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source alsa:voicememo_capture --format ogg",
            launcher: cpu.map { "taskset -c \($0)" } ?? "")
        try app.waitFor("Listening to alsa:voicememo_capture", timeout: 20)
        try app.press("r")
        let screen = try app.waitForRecording(atLeast: minutes * 60, timeout: 240)
        #expect((AppTmuxSession.recordedSeconds(screen) ?? 0) >= minutes * 60, "the recording reached \(minutes) min: \(screen)")
        return app
    }

    @Test func thePromptComesAtOnceTheMeterMovesAndTheTitleTypedDuringTheSaveIsTheMemos() throws {
        let (sandbox, input) = try Self.sandboxWithEndlessNoise()
        defer { withExtendedLifetime(input) {} }
        // 12 minutes: the backlog outlasts the checks below even on a quiet machine (with 6 it
        // was once saved before the last of them; with 9, the save took about 10 s here).
        let cpu = try BusyCPU.firstAllowed()
        let app = try Self.recordLong(sandbox, minutes: 12, onCPU: cpu)
        var busy: BusyCPU? = try BusyCPU(cpu, spinners: 2, in: sandbox, lowering: try app.panePID())
        defer { withExtendedLifetime(busy) {} }
        try app.press("s")
        // The title prompt opens with the stop (the same reduce, the frame log says so too);
        // the save's progress shows above it once it has run half a second.
        let both = try app.screenWhere(timeout: 10) { $0.contains("Title: Memo ") && $0.contains("Saving “Memo ") }
        let afterS = try app.screen()
        #expect(both != nil, "the prompt is up while the save runs: \(afterS)")
        // The save says "finishing the file" while the writer ends its own part, then how far
        // the encoder's backlog is (a fresh-clone run caught the first at half a second).
        let encoding = try app.screenWhere(timeout: 10) { $0.contains("Title: Memo ") && $0.contains("encoding Ogg Vorbis, ") }
        let afterEncoding = try app.screen()
        #expect(encoding != nil, "the save's progress: \(afterEncoding)")
        // Successive captures while the prompt is up and the save runs: the meter's row changes.
        let first = Self.meterRow(afterEncoding)
        let moved = try app.screenWhere(timeout: 10) { screen in
            screen.contains("Title: Memo ") && screen.contains("Saving “Memo ") && Self.meterRow(screen) != first
        }
        let last = try app.screen()
        #expect(moved != nil, "the meter moved under the prompt: first \(first), last \(last)")
        try app.press("End")
        try app.type(" lecture")
        try app.press("Enter")
        // Said by the save's line or, while the title's own notice holds the status line, by
        // the memo's row (the save still running under the new title).
        let renamed = try app.screenWhere(timeout: 10) {
            ($0.contains("Saving “Memo ") && $0.contains(" lecture”")) || $0.contains(" lecture [saving]")
        }
        let afterEnter = try app.screen()
        #expect(renamed != nil, "the save goes on under the new title: \(afterEnter)")
        // `r` first, while most of the backlog is left (on a quiet machine the whole save takes
        // seconds): refused with how far the save is, not queued to start minutes later.
        try app.press("r")
        let notRecording = try app.screenWhere(timeout: 10) { $0.contains("Still saving the last memo; press r again") }
        let afterR = try app.screen()
        #expect(notRecording != nil, "r during a long save is refused: \(afterR)")
        // A key answers during the save: `m` switches the meter mode (its name is on the scale row).
        try app.press("m")
        let answered = try app.screenWhere(timeout: 10) { $0.contains("PPM") && ($0.contains("Saving “Memo ") || $0.contains("[saving]")) }
        let afterM = try app.screen()
        #expect(answered != nil, "m answered while saving: \(afterM)")
        // `s` again is refused with a reason, not lost.
        try app.press("s")
        let refused = try app.screenWhere(timeout: 10) { $0.contains("Already saving “Memo ") }
        let afterSecondS = try app.screen()
        #expect(refused != nil, "\(afterSecondS)")
        // The save ends once the CPU is free; the memo has the title typed while it ran, in
        // the index and the file. (Not while a refusal holds the status line: "Already saving
        // “Memo … lecture”." hides the save's own line for a few seconds but the save goes on.)
        busy = nil
        let done = try app.waitUntil(timeout: 240) { !$0.lowercased().contains("saving “memo ") && $0.contains(" lecture") }
        #expect(!done.contains("Saving “Memo "), "\(done)")
        #expect(!done.contains("● REC"), "the refused r started nothing: \(done)")
        try app.press("q")
        #expect(try app.waitFor("END", timeout: 20).contains("EXIT=0"))
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1, "\(memos)")
        let memo = memos.first
        #expect((memo?["title"] as? String)?.hasSuffix(" lecture") == true, "\(String(describing: memo))")
        #expect(memo?["state"] as? String == "complete", "\(String(describing: memo))")
        if let path = memo?["path"] as? String {
            let reader = try SoundFileReader(path: path)
            defer { reader.close() }
            #expect(reader.metadata.title?.hasSuffix(" lecture") == true, "the file's own title: \(reader.metadata)")
        }
    }

    /// kill -9 while the memo is still being saved, after a title was typed: the next start
    /// recovers the memo (encoding it again from its intermediate) with that title.
    @Test func aTitleTypedDuringTheSaveSurvivesAKillNine() throws {
        let (sandbox, input) = try Self.sandboxWithEndlessNoise()
        defer { withExtendedLifetime(input) {} }
        let app = try Self.recordLong(sandbox, minutes: 6)
        try app.press("s")
        let prompt = try app.screenWhere(timeout: 10) { $0.contains("Title: Memo ") }
        let afterS = try app.screen()
        #expect(prompt != nil, "\(afterS)")
        try app.press("End")
        try app.type(" kept")
        try app.press("Enter")
        // The runner stores the title in the index within 0.1 s, while the memo is still `recording`.
        let deadline = Date().addingTimeInterval(20)
        var stored: [String: Any]?
        while Date() < deadline, stored == nil {
            stored = try sandbox.listedMemos(noWait: true).first { ($0["title"] as? String)?.hasSuffix(" kept") == true }
            if stored == nil { Thread.sleep(forTimeInterval: 0.1) }
        }
        // Still `recording`: the save had not finished the memo when the title reached the index.
        #expect(stored?["state"] as? String == "recording", "stored while saving: \(String(describing: stored))")
        let pane = try app.panePID()
        _ = try sandbox.shell("kill -9 $(pgrep -P \(pane) -x voicememo)", timeout: .seconds(10))
        _ = try app.waitFor("END", timeout: 20)
        // The next start (here `list`, which recovers: encoding 6 min of Vorbis again) finishes
        // the memo with the title.
        let memos = try sandbox.listedMemos(timeout: .seconds(300))
        #expect(memos.count == 1, "\(memos)")
        let memo = memos.first
        #expect((memo?["title"] as? String)?.hasSuffix(" kept") == true, "\(String(describing: memo))")
        #expect(memo?["state"] as? String == "recovered", "\(String(describing: memo))")
        #expect((memo?["duration"] as? Double ?? 0) >= 360, "\(String(describing: memo))")
    }

    @Test func quitDuringALongSaveAsksThenWaitsAndTheMemoIsComplete() throws {
        let (sandbox, input) = try Self.sandboxWithEndlessNoise()
        defer { withExtendedLifetime(input) {} }
        let app = try Self.recordLong(sandbox, minutes: 6)
        try app.press("s")
        let saving = try app.waitFor("Saving “Memo ", timeout: 10)
        #expect(saving.contains("Saving “Memo "), "\(saving)")
        // The title prompt is up (q would be typed into it): Esc keeps the recorded title.
        try app.press("Escape")
        try app.press("q")
        let asked = try app.screenWhere(timeout: 10) { $0.contains("quit when done? (y/N)") }
        let afterQ = try app.screen()
        #expect(asked != nil, "q during the save asks: \(afterQ)")
        try app.press("y")
        let end = try app.waitFor("END", timeout: 180)
        #expect(end.contains("EXIT=0"), "\(end)")
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1, "\(memos)")
        let memo = memos.first
        #expect(memo?["state"] as? String == "complete", "\(String(describing: memo))")
        #expect(memo?["format"] as? String == "ogg", "\(String(describing: memo))")
        #expect((memo?["duration"] as? Double ?? 0) >= 360, "the whole recording is there: \(String(describing: memo))")
        // The file is whole: it holds the frames the index says, and its last second decodes.
        if let path = memo?["path"] as? String, let frames = memo?["frames"] as? Int {
            let reader = try SoundFileReader(path: path)
            defer { reader.close() }
            #expect(reader.info.frames == Int64(frames), "\(reader.info)")
            try reader.seek(toFrame: Int64(frames - 48000))
            var last = [Float](repeating: 0, count: 48000 * reader.info.channels)
            let read = try last.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return try reader.read(into: base, frames: 48000, as: .float32)
            }
            #expect(read == 48000, "the last second decodes")
        }
    }

    /// The library opens beside the loop, after the first frame: one that cannot be opened
    /// still ends the app with its reason, exit 1, and the terminal given back.
    @Test func aLibraryThatCannotBeOpenedEndsTheAppWithItsReason() throws {
        let sandbox = try VoiceMemoSandbox()
        let notAFolder = sandbox.file("not-a-folder")
        try Data("x".utf8).write(to: URL(fileURLWithPath: notAFolder))
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source tone:440@-12", environment: "VOICEMEMO_HOME='\(notAFolder)'")
        let end = try app.waitFor("END", timeout: 20)
        #expect(end.contains("EXIT=1"), "\(end)")
        #expect(end.contains("not-a-folder"), "the message names the library: \(end)")
        #expect(end.contains("MODES: icanon echo END"), "the terminal is restored: \(end)")
    }

    /// The first LED row and its numbers.
    static func meterRow(_ screen: String) -> String {
        screen.split(separator: "\n").first { $0.hasPrefix(" L ") }.map(String.init) ?? ""
    }
}

/// One CPU kept busy by `spinners` shell loops at nice 0, pinned to it (`taskset`), until
/// this is released: what a loaded machine does to a nice-10 thread on that CPU.
final class BusyCPU {
    private let spinners: [pid_t]

    /// The lowest CPU this process may run on (`Cpus_allowed_list` in /proc/self/status:
    /// "0-1", "2,4-7").
    static func firstAllowed() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let list = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces)
        guard let first = list?.split(whereSeparator: { $0 == "," || $0 == "-" }).first, let cpu = Int(first) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no Cpus_allowed_list in /proc/self/status"])
        }
        return cpu
    }

    /// - Parameter session: a process of the session to slow (the app's tmux pane): with
    ///   autogroup scheduling (`/proc/sys/kernel/sched_autogroup_enabled`), CPU time is shared
    ///   between sessions first and by nice only within one, so the app's session would get
    ///   half the CPU against the spinners whatever its threads' nice. Its autogroup is given
    ///   nice 10 (`/proc/PID/autogroup`), as a loaded machine's other sessions would leave it;
    ///   without autogroups the file is absent and the threads' own nice decides.
    init(_ cpu: Int, spinners count: Int, in sandbox: VoiceMemoSandbox, lowering session: String? = nil) throws {
        if let session, FileManager.default.fileExists(atPath: "/proc/\(session)/autogroup") {
            try Data("10\n".utf8).write(to: URL(fileURLWithPath: "/proc/\(session)/autogroup"))
        }
        spinners = try (0..<count).map { _ in
            try ProcessRunner.spawn(
                URL(fileURLWithPath: "/usr/bin/taskset"), arguments: ["-c", String(cpu), "/bin/sh", "-c", "while :; do :; done"],
                environment: sandbox.environment, standardInput: "/dev/null", standardOutput: "/dev/null", standardError: "/dev/null")
        }
    }

    deinit {
        for pid in spinners {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}

/// A capture input without end: a raw file looped into a FIFO (which the ALSA file device
/// reads as its infile) at `speed`× real time (48 kHz stereo S16), by a small Python feeder
/// that holds the FIFO open for reading and writing, so the device's opens never block and a
/// reader closing it (the app reopening its input) ends nothing. It stops when this is
/// released, or by itself once the test process is gone (its parent changes).
final class EndlessInput {
    let fifo: String
    private let feeder: pid_t

    static let script = """
        import os, select, sys, time
        fifo, source, speed = sys.argv[1], sys.argv[2], float(sys.argv[3])
        parent = os.getppid()
        data = memoryview(open(source, "rb").read())
        fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        chunk, position, sent, start = 192000, 0, 0, time.monotonic()
        while os.getppid() == parent:
            wait = start + sent / (192000 * speed) - time.monotonic()
            if wait > 0:
                time.sleep(min(wait, 0.05))
                continue
            if not select.select([], [fd], [], 0.2)[1]:
                continue
            try:
                written = os.write(fd, data[position:position + chunk])
            except BlockingIOError:
                continue
            position, sent = (position + written) % len(data), sent + written
        """

    init(looping source: String, into fifo: String, speed: Double, in sandbox: VoiceMemoSandbox) throws {
        self.fifo = fifo
        guard mkfifo(fifo, 0o600) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mkfifo \(fifo): \(String(cString: strerror(errno)))"])
        }
        let script = sandbox.file("endless-input.py")
        try Data(Self.script.utf8).write(to: URL(fileURLWithPath: script))
        for log in ["endless-input.out", "endless-input.err"] {
            _ = FileManager.default.createFile(atPath: sandbox.file(log), contents: nil)  // spawn opens, not creates
        }
        feeder = try ProcessRunner.spawn(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", script, fifo, source, String(speed)],
            environment: sandbox.environment, standardInput: "/dev/null",
            standardOutput: sandbox.file("endless-input.out"), standardError: sandbox.file("endless-input.err"))
        // The FIFO has its writer (and reader) once the feeder has opened it.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, kill(feeder, 0) == 0, !Self.isOpen(fifo, by: feeder) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        guard Self.isOpen(fifo, by: feeder) else {
            let said = (try? String(contentsOfFile: sandbox.file("endless-input.err"), encoding: .utf8)) ?? ""
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey:
                "the input's feeder did not open \(fifo) within 10 s: \(said)"])
        }
    }

    /// Whether process `pid` has `path` open (one of its /proc fd links points there).
    static func isOpen(_ path: String, by pid: Int32) -> Bool {
        let folder = "/proc/\(pid)/fd"
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let links = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return links.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) == target }
    }

    deinit {
        kill(feeder, SIGKILL)  // nothing of the feeder's needs finishing
        var status: Int32 = 0
        waitpid(feeder, &status, 0)
    }
}

extension AppTmuxSession {
    /// Waits until `condition` holds for a capture of the pane (or `timeout` passes);
    /// returns that capture, or `nil` if it never held.
    func screenWhere(timeout: Double, _ condition: (String) -> Bool) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let screen = try screen()
            if condition(screen) { return screen }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }
}
