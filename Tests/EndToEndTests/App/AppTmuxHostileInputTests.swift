import Foundation
import Testing

/// The full-screen app in tmux against hostile input: titles carrying terminal escape
/// sequences, and 30 s of random bytes typed at it.
@Suite struct AppTmuxHostileInputTests {
    /// Each title hides a sequence between two markers; if it reached the terminal, the cells
    /// between the markers would be styled, moved or missing, or the pane's title would change.
    static let titles: [(before: String, sequence: String, after: String)] = [
        ("AAA", "\u{1B}[31;1m", "BBB"),  // SGR: red, bold
        ("CCC", "\u{1B}]0;pwned\u{07}", "DDD"),  // OSC 0: window title
        ("EEE", "\u{1B}[2J\u{1B}[1;1H", "FFF"),  // CSI: clear the screen, cursor home
        ("GGG", "\u{1B}]52;c;cHduZWQ=\u{07}", "HHH"),  // OSC 52: set the clipboard
        ("III", "\u{9B}7m", "JJJ"),  // C1 CSI: reverse video
    ]

    @Test func titlesWithEscapeSequencesNeverReachTheTerminal() throws {
        let sandbox = try VoiceMemoSandbox()
        for title in Self.titles {
            _ = try sandbox.recordMemo(title: title.before + title.sequence + title.after)
        }
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12")
        let plain = try app.waitFor("III")
        let styled = try app.tmux("capture-pane -p -e -t app").standardOutput
        let paneTitle = try app.tmux("display -p -t app '#{pane_title}'").standardOutput
        let buffers = try app.tmux("list-buffers").standardOutput
        print("AppTmuxHostileInputTests: rows with hostile titles as drawn: \(plain.split(separator: "\n").filter { $0.contains("AAA") || $0.contains("III") })")

        for title in Self.titles {
            let row = styled.split(separator: "\n").first { $0.contains(title.before) }.map(String.init) ?? ""
            let between = row.components(separatedBy: title.before).dropFirst().first?.components(separatedBy: title.after).first
            #expect(between != nil, "\(title.before)…\(title.after) is drawn on one row: \(plain)")
            #expect(between.map { !$0.contains("\u{1B}") && !$0.contains("\u{9B}") } == true,
                "no escape sequence between \(title.before) and \(title.after): \(row.debugDescription)")
        }
        #expect(!paneTitle.contains("pwned"), "OSC 0 did not set the title: \(paneTitle)")
        #expect(buffers.isEmpty, "OSC 52 did not set a tmux buffer: \(buffers)")
        #expect(plain.contains("VoiceMemo"), "the screen was not cleared: \(plain)")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    /// Seeded random bytes, 16 every 50 ms for 30 s. Left out: `q`/`Q` (quit) and the bytes
    /// the tty turns into signals in cbreak mode (^C, ^Z, ^\). ^S and ^Q are in: the app
    /// turns XON/XOFF flow control off, so ^S cannot freeze the screen.
    @Test func thirtySecondsOfRandomBytesDoNotCrashTheApp() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "Existing")
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12")
        try app.waitFor("Listening")
        let typing = try sandbox.shell("""
            RANDOM=42
            end=$(( $(date +%s) + 30 ))
            sent=0
            while [ "$(date +%s)" -lt "$end" ]; do
                bytes=""
                for _ in $(seq 16); do
                    b=$(( RANDOM % 256 ))
                    case $b in 3|26|28|81|113) continue ;; esac
                    bytes="$bytes $(printf '%02x' $b)"
                    sent=$((sent + 1))
                done
                tmux -L \(app.socket) send-keys -t app -H $bytes || { echo "tmux refused: the app is gone?"; break; }
                sleep 0.05
            done
            echo "sent=$sent"
            """, timeout: .seconds(90))
        let during = try app.screen()
        #expect(!during.contains("EXIT="), "the app is still running after the bytes: \(during)")
        print("AppTmuxHostileInputTests: random input: \(typing.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) bytes in 30 s; still running: \(!during.contains("EXIT="))")

        // Leave whatever prompt or panel the bytes opened, then quit.
        var screen = during
        for _ in 0..<6 where !screen.contains("END") {
            try app.press("Escape")
            Thread.sleep(forTimeInterval: 0.3)
            try app.press("q")
            screen = try app.waitFor("END", timeout: 2)
        }
        if !screen.contains("END") {
            let pane = try app.tmux("display -p -t app '#{pane_pid}'").standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            _ = try sandbox.shell("kill -TERM $(ps -o pid= --ppid \(pane))")
            screen = try app.waitFor("END")
        }
        #expect(screen.contains("EXIT=0"), "\(screen)")
        #expect(screen.contains("MODES: icanon echo END"), "the terminal is sane afterwards: \(screen)")
        let listed = try sandbox.run("list", "--json")
        #expect(listed.status == 0, "the library is intact: \(listed)")
    }
}
