import TestSupport
import Foundation
import Testing

/// Transcripts in the full-screen app (the background job, `/` over spoken words, ⏎ from the
/// word, the `T` view) and after `record`, with the real recogniser on pocketsphinx-testdata's
/// speech. goforward.raw ("go forward ten meters", which our pipeline hears word for word) is
/// the short clip; the LibriVox clips make a memo long enough to act on mid-transcription.
/// Waits end on what the product records in VOICEMEMO_EVENT_LOG or shows, never on a sleep.
@Suite(.serialized) struct TranscriptionAppTests {
    static let goForward = "/usr/share/pocketsphinx/test/data/goforward.raw"
    static let librivox = "/usr/share/pocketsphinx/test/data/librivox/"

    /// Puts goforward.raw into the library as 48 kHz stereo FLAC after 6 s of silence, so
    /// "forward" is said 6.64 s in (and ⏎ from it is told apart from ⏎ from the start).
    static func addGoForward(to sandbox: VoiceMemoSandbox, name: String = "forward") throws {
        let made = try sandbox.shell(
            "sox -r 16000 -e signed -b 16 -c 1 \(goForward) -r 48000 -c 2 \"$VOICEMEMO_HOME/\(name).flac\" pad 6 0")
        #expect(made.status == 0, "\(made)")
    }

    /// A memo of 29 s of read speech (the five LibriVox clips), 48 kHz stereo FLAC, adopted as "long".
    static func addLongMemo(to sandbox: VoiceMemoSandbox) throws {
        let clips = (try FileManager.default.contentsOfDirectory(atPath: librivox)).filter { $0.hasSuffix(".wav") }.sorted()
        let made = try sandbox.shell(
            "sox \(clips.map { librivox + $0 }.joined(separator: " ")) -r 48000 -c 2 \"$VOICEMEMO_HOME/long.flac\"")
        #expect(made.status == 0, "\(made)")
    }

    /// A sandbox with `transcribe = auto`, an event log, and the long memo waiting to be transcribed.
    static func longMemoToTranscribe() throws -> (VoiceMemoSandbox, log: String) {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.writeConfig("transcribe = auto\n")
        try addLongMemo(to: sandbox)
        return (sandbox, sandbox.file("events.log"))
    }

    /// `q`, and the app exits 0.
    static func quit(_ app: AppTmuxSession) throws {
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    /// The lines of the event log so far.
    static func events(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits until the event log has a line starting with `prefix` (or `timeout` passes).
    @discardableResult
    static func waitForEvent(_ prefix: String, in path: String, timeout: Double = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if events(path).contains(where: { $0.hasPrefix(prefix) }) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    static func memoID(titled title: String, in sandbox: VoiceMemoSandbox, deleted: Bool = false) throws -> Int {
        let memos = try sandbox.listedMemos(deleted: deleted)
        return try #require(memos.first { ($0["title"] as? String) == title }?["id"] as? Int)
    }

    static func transcriptState(of id: Int, in sandbox: VoiceMemoSandbox, deleted: Bool = false) throws -> String? {
        let memos = try sandbox.listedMemos(deleted: deleted)
        return memos.first { ($0["id"] as? Int) == id }?["transcript"] as? String
    }

    @Test func theAppTranscribesInTheBackgroundFindsSpokenWordsAndPlaysFromThem() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.useBuiltInConfig()  // transcribe = auto is the default
        let log = sandbox.file("events.log")
        sandbox.environment["VOICEMEMO_EVENT_LOG"] = log
        try Self.addGoForward(to: sandbox)
        let silence = sandbox.file("silence.raw")
        try TestSignals.writeRawNoise(to: silence, frames: 48000)
        try sandbox.installALSATestDevices(captureFile: silence, playbackFile: sandbox.file("played.raw"))
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source tone:440@-40 --device voicememo_playback",
            environment: "VOICEMEMO_EVENT_LOG='\(log)'")
        _ = try app.waitFor("Listening to")
        #expect(Self.waitForEvent("transcript ", in: log), "the adopted memo is transcribed: \(Self.events(log))")
        let id = try Self.memoID(titled: "forward", in: sandbox)
        #expect(Self.events(log).contains { $0.hasPrefix("transcript \(id) 4 ") }, "\(Self.events(log))")
        #expect(try Self.transcriptState(of: id, in: sandbox) == "complete")

        // `/` finds it by a word being typed; its snippet shows beneath it.
        try app.press("/")
        try app.type("forw")
        var screen = try app.waitFor("“go forward ten meters”")
        #expect(screen.contains("▶ forward"), "\(screen)")
        #expect(screen.contains("    00:00:06  “go forward ten meters”"), "\(screen)")
        // ⏎ closes the prompt, ⏎ plays from "forward" (6.64 s): the device gets the rest of the memo.
        try app.press("Enter")
        try app.press("Enter")
        screen = try app.waitFor("Finished playing “forward”.")
        #expect(screen.contains("Finished playing"), "\(screen)")
        let hit = try #require(try JSONSerialization.jsonObject(
            with: Data(try sandbox.run("search", "forward", "--json").standardOutput.utf8)) as? [[String: Any]]).first
        let time = try #require(hit?["time"] as? Double)
        #expect(time > 6.4 && time < 7.0, "\(String(describing: hit))")
        let played = try #require(try FileManager.default.attributesOfItem(atPath: sandbox.file("played.raw"))[.size] as? Int) / 4
        let frames = try #require(try sandbox.listedMemos().first?["frames"] as? Int)
        let expected = frames - Int((time * 48000).rounded())
        #expect(abs(played - expected) <= 1, "played \(played) frames, the memo from \(time) s has \(expected)")

        // T: the transcript view, lines with their times; Esc back to the table.
        try app.press("Escape")
        try app.press("T")
        screen = try app.waitFor("Transcript of “forward” · 4 words")
        #expect(screen.contains(" 00:00:06  go forward ten meters"), "\(screen)")
        #expect(screen.contains("⏎ play  "), "the footer lists the view's keys: \(screen)")
        try app.press("Escape")
        screen = try app.waitFor("Title")
        #expect(!screen.contains("Transcript of"), "\(screen)")
        try Self.quit(app)
    }

    @Test(.enabled(if: PulseDaemon.isAvailable, "pulseaudio cannot start here (needs /usr/bin/pulseaudio and libasound2-plugins)"))
    func theTranscriptViewLightsUpTheWordBeingHeard() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.writeConfig("transcribe = auto\n")
        let log = sandbox.file("events.log")
        try Self.addGoForward(to: sandbox)
        let pulse = try #require(PulseDaemon())
        defer { pulse.stop() }
        pulse.install(in: sandbox)
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source tone:440@-40 --device \(PulseDaemon.device)",
            environment: "VOICEMEMO_EVENT_LOG='\(log)'")
        _ = try app.waitFor("Listening to")
        #expect(Self.waitForEvent("transcript ", in: log), "\(Self.events(log))")
        try app.press("T")
        _ = try app.waitFor("Transcript of “forward” · 4 words")
        try app.press("Enter")
        // Reverse video (SGR 7) on one of the four words while it plays from the line's start.
        let words = ["go", "forward", "ten", "meters"]
        var highlighted: String?
        let deadline = Date().addingTimeInterval(20)
        while highlighted == nil, Date() < deadline {
            let styled = try app.tmux("capture-pane -p -e -t app").standardOutput
            highlighted = words.first { styled.contains("\u{1B}[7m\($0)") }
            if highlighted == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(highlighted != nil, "a word of the transcript is highlighted while it plays")
        try app.press("s")
        try app.press("Escape")
        try Self.quit(app)
    }

    @Test func transcriptionPausesWhileRecordingAndResumesAfter() throws {
        let (sandbox, log) = try Self.longMemoToTranscribe()
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source tone:440@-20", environment: "VOICEMEMO_EVENT_LOG='\(log)'")
        _ = try app.waitFor("Listening to")
        #expect(Self.waitForEvent("transcribed ", in: log), "the long memo is being transcribed: \(Self.events(log))")
        let long = try Self.memoID(titled: "long", in: sandbox)
        try app.press("r")
        #expect(Self.waitForEvent("transcription paused", in: log, timeout: 30), "\(Self.events(log))")
        // Once "Recording …" has been read (4 s), the status row says the job waits.
        _ = try app.waitForRecording(atLeast: 5, timeout: 30)
        let waiting = try app.waitFor("Transcription of “long” paused while recording", timeout: 30)
        #expect(waiting.contains("● REC") && waiting.contains("paused while recording"), "\(waiting)")
        try app.press("s")
        _ = try app.waitFor("Title:", timeout: 30)
        try app.press("Enter")
        #expect(Self.waitForEvent("transcription resumed", in: log, timeout: 30), "\(Self.events(log))")
        #expect(Self.waitForEvent("transcript \(long) ", in: log), "the long memo is finished after the pause: \(Self.events(log))")

        let lines = Self.events(log)
        // (The job is told once at its start that nothing records: a first "resume asked".)
        func index(_ prefix: String, after start: Int = 0) throws -> Int {
            try #require(lines[start...].firstIndex { $0.hasPrefix(prefix) }, "\(prefix): \(lines)")
        }
        let asked = try index("transcription pause asked")
        let paused = try index("transcription paused", after: asked)
        let resumeAsked = try index("transcription resume asked", after: asked)
        let resumed = try index("transcription resumed", after: paused)
        #expect(asked < paused && paused < resumeAsked && resumeAsked < resumed, "\(lines)")
        // The block being decoded when the pause was asked for is finished, then nothing until resumed.
        #expect(lines[asked..<paused].filter { $0.hasPrefix("transcribed ") }.count <= 1, "\(lines)")
        #expect(!lines[paused..<resumed].contains { $0.hasPrefix("transcribed ") }, "no block decoded while paused: \(lines)")
        #expect(lines[..<asked].contains { $0.hasPrefix("transcribed \(long) ") }, "it had begun before")
        #expect(lines[resumed...].contains { $0.hasPrefix("transcribed \(long) ") }, "and went on after")
        // Asked to pause for the whole recording (the product's own times: the log's and the memo's length).
        func time(_ line: String) -> Double { Double(line.split(separator: " ").last ?? "") ?? 0 }
        let recorded = try #require(try sandbox.listedMemos().first { ($0["title"] as? String)?.hasPrefix("Memo ") == true })
        let seconds = try #require(recorded["duration"] as? Double)
        let pause = time(lines[resumeAsked]) - time(lines[asked])
        // The pause is asked before the recording starts and lifted after it stops; the slack is
        // the recording's frames against the wall clock: the listed length is rounded to 10 ms,
        // and the paced tone source hands over 20 ms blocks, late ones at once when the machine
        // held it up (a loaded run: "paused 18.8906 s for 18.92 s recorded"). A pause that began
        // late or ended early by more than that still fails.
        #expect(seconds >= 4 && pause + 0.1 >= seconds, "paused \(pause) s for \(seconds) s recorded")
        // The new memo (a tone: no words) is transcribed too.
        let newID = try #require(recorded["id"] as? Int)
        #expect(Self.waitForEvent("transcript \(newID) 0 ", in: log), "\(Self.events(log))")
        #expect(try Self.transcriptState(of: long, in: sandbox) == "complete")
        try Self.quit(app)
    }

    @Test func aKillNineMidTranscriptionIsResumedAtTheNextStart() throws {
        let (sandbox, log) = try Self.longMemoToTranscribe()
        var app: AppTmuxSession? = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source tone:440@-40", environment: "VOICEMEMO_EVENT_LOG='\(log)'")
        _ = try app?.waitFor("Listening to")
        #expect(Self.waitForEvent("transcribed ", in: log), "\(Self.events(log))")
        let pane = try #require(try app?.panePID())
        let killed = try sandbox.shell("pid=$(ps -o pid= --ppid \(pane)); kill -9 $pid && echo killed $pid")
        #expect(killed.standardOutput.hasPrefix("killed"), "\(killed)")
        _ = try app?.waitFor("EXIT=137")
        app = nil
        let long = try Self.memoID(titled: "long", in: sandbox)
        #expect(try Self.transcriptState(of: long, in: sandbox) == "none", "nothing half-made was stored")

        let again = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source tone:440@-40", environment: "VOICEMEMO_EVENT_LOG='\(log)'")
        _ = try again.waitFor("Listening to")
        #expect(Self.waitForEvent("transcript \(long) ", in: log), "the next start transcribes it whole: \(Self.events(log))")
        #expect(try Self.transcriptState(of: long, in: sandbox) == "complete")
        let words = try sandbox.run("transcribe", "long", "--json")
        #expect(words.status == 0 && words.standardOutput.contains("\"word\": \"leisure\""), "\(words)")
        try Self.quit(again)
    }

    @Test func aMemoDeletedWhileItIsTranscribedIsSkippedAndTheNextIsDone() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let log = sandbox.file("events.log")
        try Self.addGoForward(to: sandbox)
        // The long memo is recorded after the short one is adopted: it is the newest, done first.
        let clips = (try FileManager.default.contentsOfDirectory(atPath: Self.librivox)).filter { $0.hasSuffix(".wav") }.sorted()
        let made = try sandbox.shell("sox \(clips.map { Self.librivox + $0 }.joined(separator: " ")) -r 48000 -c 2 \(sandbox.file("long.wav"))")
        #expect(made.status == 0, "\(made)")
        let recorded = try sandbox.run("record", "--source", "file:" + sandbox.file("long.wav"), "--title", "Long", "--format", "flac")
        #expect(recorded.status == 0, "\(recorded)")
        let long = try #require(Int(recorded.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        let short = try Self.memoID(titled: "forward", in: sandbox)
        try sandbox.writeConfig("transcribe = auto\n")
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source tone:440@-40", environment: "VOICEMEMO_EVENT_LOG='\(log)'")
        // The newest memo is selected once the library is listed.
        var screen = try app.waitFor("▶ Long")
        #expect(screen.contains("▶ Long"), "\(screen)")
        #expect(Self.waitForEvent("transcribed \(long) ", in: log), "\(Self.events(log))")
        try app.press("d")
        screen = try app.waitFor("Moved “Long” to Recently Deleted")
        #expect(Self.waitForEvent("skipped \(long)", in: log, timeout: 30), "\(Self.events(log))")
        #expect(Self.waitForEvent("transcript \(short) 4 ", in: log), "the job goes on with the next: \(Self.events(log))")
        let state = try Self.transcriptState(of: long, in: sandbox, deleted: true)
        #expect(state == "none", "nothing stored for the deleted memo (not even a failure: its file moved under the reader): \(String(describing: state)) \(Self.events(log))")
        #expect(!Self.events(log).contains { $0.hasPrefix("transcript \(long) ") })
        // Undone, it is wanted again: the job starts on it once more.
        try app.press("u")
        _ = try app.waitFor("▶ Long")
        let deadline = Date().addingTimeInterval(30)
        var again = false
        while !again, Date() < deadline {
            let events = Self.events(log)
            let shortDone = events.lastIndex { $0.hasPrefix("transcript \(short) ") } ?? events.count
            again = events.indices.contains { $0 > shortDone && events[$0].hasPrefix("transcribing \(long)") }
            if !again { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(again, "the restored memo is transcribed: \(Self.events(log))")
        try Self.quit(app)
    }

    @Test func aMissingModelIsAClearMessageAndTheAppKeepsWorking() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.writeConfig("transcribe = auto\ntranscribe.model = \(sandbox.file("no-model"))\n")
        try Self.addGoForward(to: sandbox)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-20", width: 100)
        var screen = try app.waitFor("Transcripts are unavailable", timeout: 30)
        let message = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(message.contains("pocketsphinx-en-us") && message.contains("no-model"), "\(screen)")
        try app.press("r")
        _ = try app.waitForRecording(atLeast: 1, timeout: 30)
        try app.press("s")
        _ = try app.waitFor("Title:", timeout: 30)
        try app.press("Enter")
        screen = try app.waitFor("Saved “Memo ")
        #expect(try sandbox.listedMemos().count == 2, "\(screen)")
        try Self.quit(app)
    }

    @Test func recordTranscribesTheMemoOnceSavedUnlessToldNot() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.useBuiltInConfig()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let clip = sandbox.file("forward.wav")
        #expect(try sandbox.shell("sox -r 16000 -e signed -b 16 -c 1 \(Self.goForward) -r 48000 -c 2 \(clip)").status == 0)
        let recorded = try sandbox.run("record", "--source", "file:" + clip, "--title", "Forward", timeout: .seconds(120))
        #expect(recorded.status == 0, "\(recorded)")
        let id = recorded.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(recorded.standardError.contains("transcribing memo \(id) (--no-transcribe skips this)"), "\(recorded)")
        #expect(recorded.standardError.contains("memo \(id): 4 words transcribed"), "\(recorded)")
        let found = try sandbox.run("search", "ten meters")
        #expect(found.standardOutput.hasPrefix("\(id)  00:00:01"), "\(found)")

        let skipped = try sandbox.run("record", "--source", "file:" + clip, "--title", "Quiet", "--no-transcribe")
        #expect(skipped.status == 0 && !skipped.standardError.contains("transcrib"), "\(skipped)")
        let quiet = skipped.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try Self.transcriptState(of: Int(quiet) ?? 0, in: sandbox) == "none")

        // A missing model: the memo is kept, exit 0, and stderr says why it is not transcribed.
        try sandbox.writeConfig("transcribe = auto\ntranscribe.model = \(sandbox.file("no-model"))\n")
        let noModel = try sandbox.run("record", "--source", "file:" + clip, "--title", "No model")
        #expect(noModel.status == 0, "\(noModel)")
        #expect(noModel.standardError.contains("is saved but not transcribed") && noModel.standardError.contains("pocketsphinx-en-us"), "\(noModel)")

        // On a terminal, `transcribe` shows how far it is on one line.
        try sandbox.writeConfig("transcribe = manual\n")
        let terminal = try sandbox.shell("script -qec 'voicememo transcribe \(id) --again' /dev/null", timeout: .seconds(120))
        #expect(terminal.status == 0, "\(terminal)")
        #expect(terminal.standardOutput.contains("\rtranscribing memo \(id) “Forward”: 100 %"), "\(terminal)")
        #expect(terminal.standardOutput.contains("go forward ten meters"), "\(terminal)")
    }
}
