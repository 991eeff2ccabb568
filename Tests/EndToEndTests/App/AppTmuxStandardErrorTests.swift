import Foundation
import Testing

/// No library writes over the full-screen app.
@Suite struct AppTmuxStandardErrorTests {
    @Test func aTextFileNamedMP3PrintsNothingOverTheScreenAndSaysWhatItIs() throws {
        let sandbox = try VoiceMemoSandbox()
        try Data("this is just text, not audio at all\n".utf8)
            .write(to: sandbox.libraryDirectory.appendingPathComponent("text.mp3"))
        // Wide enough for the message after the sandbox's long path.
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device null", width: 200)
        let first = try app.waitForStart()
        #expect(first.contains("text [damaged]"), "the table says the memo is damaged: \(first)")
        try app.press("Enter")
        var screen = try app.waitFor("Cannot play")
        #expect(screen.contains("Cannot play"), "\(screen)")
        // libmpg123 writes its notes while libsndfile probes the file: give them time to land.
        try app.press("Enter")
        screen = try app.waitFor("Cannot play")
        #expect(!screen.contains("Note:") && !screen.contains("MPEG"), "nothing from libmpg123 on the screen: \(screen)")
        let message = AppTmuxSession.flattened(screen)
        #expect(message.contains("not audio libsndfile can decode"), "the real cause: \(screen)")
        #expect(!message.contains("No such file") && !message.contains("pipe"), "\(screen)")
        try app.press("C-l")
        screen = try app.waitFor("Title")
        #expect(!screen.contains("Note:"), "\(screen)")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
        // Opening the library measures the file before the screen is taken: those notes stay in
        // the shell's scrollback, once; the two ⏎ while the screen was up added none.
        let groups = screen.components(separatedBy: "Note: Illegal Audio-MPEG-Header").count - 1
        #expect(groups <= 1, "\(groups) groups of notes: \(screen)")
    }

    @Test func theCommandLineNamesTheRealCauseToo() throws {
        let sandbox = try VoiceMemoSandbox()
        let text = sandbox.file("text.mp3")
        try Data("this is just text\n".utf8).write(to: URL(fileURLWithPath: text))
        let outcome = try sandbox.run("analyze", text)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("not audio libsndfile can decode"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("No such file"), "\(outcome.standardError)")
        let fifo = sandbox.file("pipe.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        for arguments in [["analyze", fifo], ["meter", "--source", "file:" + fifo, "--duration", "0.1"], ["analyze", "/dev/zero"]] {
            let special = try sandbox.run(arguments: arguments, timeout: .seconds(10))
            #expect(!special.timedOut && special.status != 0, "\(arguments): \(special)")
            #expect(!special.standardError.contains("empty (0 bytes)"), "\(arguments): \(special.standardError)")
            #expect(special.standardError.contains("not a sound file"), "\(arguments): \(special.standardError)")
        }
    }

    /// Without an alternate screen (TERM=vt100) the app's last line stayed
    /// under the shell's next output.
    @Test func quittingOnAVT100LeavesNothingOfTheAppOnTheScreen() throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40", environment: "TERM=vt100")
        try app.waitForStart()
        try app.press("q")
        let screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
        for leftover in ["record/pause", "Listening to", "digital peak", "VoiceMemo"] {
            #expect(!screen.contains(leftover), "\(leftover) is still on the screen: \(screen)")
        }
    }

    /// With a locale that is not UTF-8 the app writes ASCII only.
    @Test func underLangCTheScreenIsASCII() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "Interview 会議 “quoted”")
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12", environment: "LANG=C LC_ALL=C")
        // The table loads beside the input, and the levels come with the first tick after its
        // first frames: on a loaded machine the first screens can show neither.
        let screen = try app.waitUntil { $0.contains("Listening to") && $0.contains("Interview ????") && $0.contains("#") }
        #expect(screen.contains("Interview ???? \"quoted\""), "\(screen)")
        #expect(screen.contains("#"), "the LED bar in ASCII: \(screen)")
        let foreign = screen.unicodeScalars.filter { !$0.isASCII }
        #expect(foreign.isEmpty, "non-ASCII on a C-locale screen: \(String(String.UnicodeScalarView(foreign)))")
        try app.press("q")
        let end = try app.waitFor("END")
        #expect(end.contains("EXIT=0"), "\(end)")
    }

    /// A fatal signal (a Swift trap is SIGILL or SIGTRAP; here a SIGSEGV from outside) gives the
    /// terminal back before the process dies: the alternate screen left, the cursor shown, the
    /// line discipline's modes restored, and standard error back on the terminal rather than
    /// in the capture's pipe. The handler's state was one copy per object file before it was
    /// made one weak definition (CNCursesW/shim.h): this kept the handler itself honest.
    @Test(arguments: ["SEGV", "ILL", "TRAP"])
    func aFatalSignalGivesTheTerminalBack(signal: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device null")
        try app.waitForStart()
        #expect(try app.tmux("display -p -t app '#{alternate_on}'").standardOutput.hasPrefix("1"), "curses is up")
        let pane = try app.panePID()
        let kill = try sandbox.shell("kill -\(signal) $(pgrep -P \(pane) -x voicememo)", timeout: .seconds(10))
        #expect(kill.status == 0, "\(kill)")
        let screen = try app.waitFor("END")
        #expect(screen.contains("MODES: icanon echo"), "the shell's modes are back: \(screen)")
        #expect(!screen.contains("EXIT=0"), "it died of the signal: \(screen)")
        #expect(!screen.contains("Listening to"), "the app's screen is gone: \(screen)")
        #expect(try app.tmux("display -p -t app '#{alternate_on} #{cursor_flag}'").standardOutput.hasPrefix("0 1"))
    }

    /// What is written to standard error while the screen is up goes into a pipe, so a crash's
    /// own words (Swift writes "Fatal error: …" there just before its trap) were lost with the
    /// process. The fatal-signal handler now writes the pipe's last 2 kB on the terminal: a line
    /// the capture has read (written 1 s before) and one it may not have (written just before
    /// the signal), in order. Written from outside through /proc/PID/fd/2, the pipe itself.
    ///
    /// The screen's queue goes on drawing while the handler runs (CI once found "3.0", a meter
    /// reading's cells, drawn on the shell's screen after the alternate screen was left, and
    /// the words wrapped after it): the input here is noise, whose readings change every
    /// frame, and nothing but the handler's words and the shell's may be on the screen.
    @Test func whatWasWrittenToStandardErrorBeforeACrashReachesTheTerminal() throws {
        let sandbox = try VoiceMemoSandbox()
        let noise = try sandbox.shell("sox -n -r 48000 -c 2 -b 16 noise.wav synth 120 whitenoise vol 0.3")
        try #require(noise.status == 0, "\(noise)")
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source file:\(sandbox.file("noise.wav")) --device null", width: 100)
        try app.waitForStart()
        let pane = try app.panePID()
        let crash = try sandbox.shell("""
            pid=$(pgrep -P \(pane) -x voicememo)
            readlink /proc/$pid/fd/2
            echo 'first line, read by the capture' > /proc/$pid/fd/2
            sleep 1
            echo 'Fatal error: the last words before the trap' > /proc/$pid/fd/2
            kill -ILL $pid
            """, timeout: .seconds(20))
        #expect(crash.status == 0 && crash.standardOutput.hasPrefix("pipe:"), "fd 2 is the capture's pipe: \(crash)")
        let screen = try app.waitFor("END")
        #expect(!screen.contains("EXIT=0") && screen.contains("MODES: icanon echo"), "\(screen)")
        let first = try #require(screen.range(of: "first line, read by the capture"), "\(screen)")
        let last = try #require(screen.range(of: "Fatal error: the last words before the trap"), "\(screen)")
        #expect(first.upperBound <= last.lowerBound, "in the order written: \(screen)")
        #expect(!screen.contains("Listening to"), "the app's screen is gone: \(screen)")
        // Above the shell's report of the signal: the handler's two lines and nothing else.
        let handlers = screen.split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.contains("Illegal instruction") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(
            handlers == ["first line, read by the capture", "Fatal error: the last words before the trap"],
            "nothing of the app's screen is drawn on the shell's: \(handlers) in \(screen)")
    }
}
