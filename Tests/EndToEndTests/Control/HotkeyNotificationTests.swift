import Foundation
import Testing

/// Desktop notifications of `toggle`, `stop`, `pause` and `mark`, through libnotify to a
/// notification server (Tests/notification-server.py) on a private session bus the test starts.
@Suite struct HotkeyNotificationTests {
    /// Starts `dbus-daemon` and the server, exporting `DBUS_SESSION_BUS_ADDRESS`; `notified TEXT`
    /// holds once a notification's line contains TEXT; `stop_bus` ends both.
    static let bus = """
        dbus-daemon --session --nofork --print-address=3 3>bus.addr 2>/dev/null &
        bus_pid=$!
        wait_until 10 "the session bus" test -s bus.addr || exit 90
        export DBUS_SESSION_BUS_ADDRESS=$(head -1 bus.addr)
        /usr/bin/python3 "$REPO/Tests/notification-server.py" notes.txt > server.out 2>&1 &
        server_pid=$!
        wait_until 10 "the notification server" grep -q ready server.out || exit 91
        notified() { grep -qF "$1" notes.txt 2>/dev/null; }
        stop_bus() { kill $server_pid $bus_pid 2>/dev/null; wait $server_pid $bus_pid 2>/dev/null; }
        gone() { ! kill -0 "$1" 2>/dev/null; }
        status_has() { voicememo status --json | grep -qF "$1"; }

        """

    static func sandbox() throws -> VoiceMemoSandbox {
        let sandbox = try ControlSocketCommandTests.sandbox()
        sandbox.environment["REPO"] = FileManager.default.currentDirectoryPath
        return sandbox
    }

    static func notes(_ sandbox: VoiceMemoSandbox) -> [String] {
        ((try? String(contentsOfFile: sandbox.file("notes.txt"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// A hotkey runs the command with its output going nowhere a person reads: started, saved
    /// and a failure each come as a notification from VoiceMemo.
    @Test func aHotkeysToggleSaysStartedAndSavedAndAFailureSaysWhy() throws {
        let sandbox = try Self.sandbox()
        try sandbox.writeConfig("source = tone:440@-20\n")
        let outcome = try sandbox.shell(Self.bus + """
            voicememo toggle > start.out || exit 4
            wait_until 10 "the start's notification" notified "in the background" || exit 5
            wait_until 10 "a second recorded" status_has '"elapsed": 1' || exit 6
            pid=$(voicememo status --json | sed -n 's/.*"pid": \\([0-9]*\\).*/\\1/p')
            voicememo toggle > stop.out || exit 7
            wait_until 10 "the background recording to end" gone "$pid" || exit 8
            voicememo stop > nothing.out 2>&1 && exit 9
            wait_until 10 "the failure's notification" notified "Failed: nothing is recording" || exit 10
            stop_bus
            """, timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome) \(Self.notes(sandbox))")
        let notes = Self.notes(sandbox)
        #expect(notes.count == 3, "\(notes)")
        #expect(notes.allSatisfy { $0.hasPrefix("VoiceMemo\tVoiceMemo\t") }, "\(notes)")
        #expect(notes.first?.contains("Recording in the background") == true, "\(notes)")
        #expect(notes.dropFirst().first?.contains("Saved memo ") == true, "said once the memo is saved: \(notes)")
        #expect(notes.last?.contains("Failed: nothing is recording in the library") == true, "\(notes)")
    }

    /// On a terminal (`auto`) nothing is shown; `notify = off` shows nothing either; a bad value
    /// is refused naming the key.
    @Test func aTerminalOrNotifyOffShowsNothingAndABadValueIsRefused() throws {
        let sandbox = try Self.sandbox()
        try sandbox.writeConfig("notify = off\n")
        let outcome = try sandbox.shell(Self.bus + """
            voicememo stop > off.out 2>&1
            script -qec "voicememo stop" /dev/null > terminal.out 2>&1
            printf 'notify = on\\n' > "$XDG_CONFIG_HOME/voicememo/config"
            voicememo stop > on.out 2>&1
            wait_until 10 "the notification asked for" notified "Failed" || exit 5
            printf 'notify = sometimes\\n' > "$XDG_CONFIG_HOME/voicememo/config"
            voicememo stop > bad.out 2>&1
            echo "bad exited $?"
            stop_bus
            """, timeout: .seconds(40))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(Self.notes(sandbox).count == 1, "off and a terminal show none, on shows one: \(Self.notes(sandbox))")
        let bad = (try? String(contentsOfFile: sandbox.file("bad.out"), encoding: .utf8)) ?? ""
        #expect(outcome.standardOutput.contains("bad exited 2") && bad.contains("notify"), "\(outcome) \(bad)")
    }

    /// Without a session bus (or libnotify) the command works as before and says nothing more.
    @Test func withoutASessionBusTheCommandIsAsBefore() throws {
        let sandbox = try Self.sandbox()
        try sandbox.writeConfig("notify = on\n")
        sandbox.environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        let outcome = try sandbox.run("stop")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("nothing is recording"), "\(outcome)")
        #expect(outcome.standardError.contains("no desktop notification: no session bus"), "\(outcome)")
    }
}
