import Foundation
import Testing
import TestSupport

/// `toggle`, `pause`, `stop`, `mark` and `status` against a `voicememo record` and against nothing:
/// the library's control socket as a desktop hotkey uses it.
@Suite struct ControlSocketCommandTests {
    /// A sandbox whose background log stays inside it (its control socket always does).
    static func sandbox() throws -> VoiceMemoSandbox {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["XDG_STATE_HOME"] = sandbox.directory.path("state").path
        return sandbox
    }

    /// Shell functions the scripts share: `status_has TEXT` (status --json contains TEXT),
    /// `gone PID` (the process has ended).
    static let functions = """
        status_has() { voicememo status --json | grep -qF "$1"; }
        gone() { ! kill -0 "$1" 2>/dev/null; }

        """

    @Test func aRecordIsPausedResumedMarkedAndStoppedFromOutside() throws {
        let sandbox = try Self.sandbox()
        let outcome = try sandbox.shell(Self.functions + """
            voicememo record --source tone:440@-20 --title Hotkeys > record.out 2> record.err &
            pid=$!
            wait_until 10 "the recording to serve its socket" status_has '"state": "recording"' || exit 3
            voicememo status --json > status-recording.json
            voicememo pause > pause.out || exit 4
            status_has '"state": "paused"' || exit 5
            voicememo pause > resume.out || exit 6
            status_has '"state": "recording"' || exit 7
            voicememo mark --label "first idea" > mark.out || exit 8
            voicememo stop > stop.out || exit 9
            wait $pid
            echo "record exited $?"
            voicememo pause 2> pause-after.err
            echo "pause after exited $?"
            """, timeout: .seconds(40))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput.contains("record exited 0"), "\(outcome)")
        #expect(outcome.standardOutput.contains("pause after exited 1"), "\(outcome)")
        let id = try read(sandbox, "record.out").trimmingCharacters(in: .whitespacesAndNewlines)
        let status = try JSONSerialization.jsonObject(with: Data(read(sandbox, "status-recording.json").utf8)) as? [String: Any]
        #expect(status?["running"] as? Bool == true)
        #expect(status?["process"] as? String == "record")
        #expect((status?["memo"] as? Int).map(String.init) == id)
        #expect(status?["title"] as? String == "Hotkeys")
        #expect(try read(sandbox, "pause.out").hasPrefix("paused memo \(id) at "))
        #expect(try read(sandbox, "resume.out") == "resumed memo \(id)\n")
        #expect(try read(sandbox, "mark.out").contains("marker “first idea” at "))
        #expect(try read(sandbox, "stop.out") == "stopping and saving memo \(id)\nsaved memo \(id)\n", "stop waits for the save")
        #expect(try read(sandbox, "pause-after.err").contains("voicememo: nothing is recording in the library "))

        let memo = try #require(try sandbox.listedMemos().first)
        #expect((memo["id"] as? Int).map(String.init) == id)
        let markers = memo["markers"] as? [[String: Any]] ?? []
        #expect(markers.map { $0["label"] as? String } == ["first idea"], "\(memo)")
    }

    @Test func toggleWithNothingRunningStartsABackgroundRecordingAndTheNextStopsIt() throws {
        let sandbox = try Self.sandbox()
        try sandbox.writeConfig("source = tone:440@-20")
        let outcome = try sandbox.shell(Self.functions + """
            voicememo status > before.out || exit 3
            voicememo toggle > start.out || exit 4
            pid=$(voicememo status --json | sed -n 's/.*"pid": \\([0-9]*\\).*/\\1/p')
            [ -n "$pid" ] || exit 5
            wait_until 10 "a second recorded" status_has '"elapsed": 1' || exit 6
            voicememo toggle > stop.out || exit 7
            wait_until 10 "the background recording to end" gone "$pid" || exit 8
            voicememo status > after.out
            """, timeout: .seconds(40))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(try read(sandbox, "before.out").hasPrefix("nothing is recording in the library "))
        let started = try read(sandbox, "start.out")
        #expect(started.contains(" in the background (pid "), "\(started)")
        #expect(started.contains("`voicememo toggle` stops it"))
        #expect(try read(sandbox, "stop.out").hasPrefix("stopping and saving memo "))
        let after = try read(sandbox, "after.out")
        #expect(after.hasPrefix("nothing is recording"), "\(after)")
        #expect(!after.contains("failed"), "\(after)")
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1)
        #expect((memos.first?["duration"] as? Double ?? 0) >= 1, "\(memos)")
    }

    /// A double press: the two take turns, so the second stops what the first started.
    @Test func twoTogglesAtOnceStartAndStopOneRecording() throws {
        let sandbox = try Self.sandbox()
        try sandbox.writeConfig("source = tone:440@-20")
        let outcome = try sandbox.shell(Self.functions + """
            voicememo toggle > one.out 2>&1 &
            first=$!
            voicememo toggle > two.out 2>&1 &
            second=$!
            wait $first || exit 3
            wait $second || exit 4
            cat one.out two.out
            pid=$(sed -n 's/.*in the background (pid \\([0-9]*\\)).*/\\1/p' one.out two.out)
            [ -n "$pid" ] || exit 5
            wait_until 10 "the background recording to end" gone "$pid" || exit 6
            """, timeout: .seconds(40))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput.components(separatedBy: " in the background (pid ").count == 2, "one started: \(outcome)")
        #expect(outcome.standardOutput.components(separatedBy: "stopping and saving memo ").count == 2, "one stopped: \(outcome)")
        // At most one memo: a stop before the first period of audio keeps none.
        #expect(try sandbox.listedMemos().count <= 1)
        #expect(try sandbox.run("status").standardOutput.hasPrefix("nothing is recording"))
    }

    @Test func aBackgroundRecordingThatFailsIsToldByStatus() throws {
        let sandbox = try Self.sandbox()
        try sandbox.writeConfig("source = file:/nonexistent/take.wav")
        let outcome = try sandbox.run("toggle")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("voicememo: the background recording did not start: "), "\(outcome)")
        let status = try sandbox.run("status")
        #expect(status.status == 0)
        #expect(status.standardOutput.contains("the last background recording failed: "), "\(status)")
        let json = try sandbox.run("status", "--json")
        #expect(json.standardOutput.hasPrefix("{\"running\": false, \"lastError\": "), "\(json)")
    }

    @Test func aStaleSocketIsReplacedAndASecondServerIsRefused() throws {
        let sandbox = try Self.sandbox()
        let nothing = try sandbox.run("status")
        let path = try #require(nothing.standardOutput.split(separator: " ").last.map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        })
        #expect(path.hasSuffix(".sock") && path.hasPrefix(sandbox.directory.path("run/voicememo").path), "\(nothing)")
        let outcome = try sandbox.shell(Self.functions + """
            mkdir -p -m 700 "$(dirname '\(path)')"
            python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' '\(path)' || exit 3
            [ -S '\(path)' ] || exit 4
            voicememo pause 2> stale-pause.err && exit 5
            voicememo record --source tone:440@-20 > first.out 2> first.err &
            pid=$!
            wait_until 10 "the recording to replace the stale socket" status_has '"state": "recording"' || exit 6
            VOICEMEMO_UNPACED=1 voicememo record --source tone:440@-20 --duration 0.5 > second.out 2> second.err
            echo "second exited $?"
            status_has "\\"pid\\": $pid" || exit 7
            voicememo stop > /dev/null || exit 8
            wait $pid
            echo "first exited $?"
            """, timeout: .seconds(40))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(try read(sandbox, "stale-pause.err").contains("nothing is recording"))
        #expect(outcome.standardOutput.contains("second exited 0"), "\(outcome)")
        #expect(outcome.standardOutput.contains("first exited 0"), "\(outcome)")
        let refusal = try read(sandbox, "second.err")
        #expect(refusal.contains("voicememo: not serving the control socket \(path): process "), "\(refusal)")
        #expect(refusal.contains(" already serves the control socket; recording on without it"), "\(refusal)")
        #expect(try sandbox.listedMemos().count == 2, "both recorded")
        #expect(!FileManager.default.fileExists(atPath: path), "the socket goes with its server")
    }

    @Test func badRequestsAreRefusedNamingTheRule() throws {
        let sandbox = try Self.sandbox()
        let long = try sandbox.run("mark", "--label", String(repeating: "x", count: 65))
        #expect(long.status == 2, "\(long)")
        #expect(long.standardError == "voicememo: a marker's label is at most 64 characters (this one has 65)\n")
        let control = try sandbox.run("mark", "--label", "two\tcolumns")
        #expect(control.status == 2)
        #expect(control.standardError.contains("no control characters"))
        for command in ["pause", "stop", "mark"] {
            let outcome = try sandbox.run(command)
            #expect(outcome.status == 1, "\(command): \(outcome)")
            #expect(outcome.standardError.hasPrefix("voicememo: nothing is recording in the library "), "\(outcome)")
        }
        let half = try sandbox.run("mark", "1")
        #expect(half.status == 2, "MEMO without AT: \(half)")
    }

    /// Root only: a client run as `nobody` may not reach the socket's folder; when the folder and
    /// socket are opened up, voicememo sends nothing to another user's socket, and a raw client is
    /// refused by the server by its uid (`SO_PEERCRED`); the recording goes on.
    @Test(.enabled(if: getuid() == 0 && Tool.exists("/usr/bin/python3") && HostProbe.succeeds("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "true"])))
    func aClientOfAnotherUIDIsRefused() throws {
        let sandbox = try Self.sandbox()
        let binary = try VoiceMemoBinary.url().path
        let outcome = try sandbox.shell(Self.functions + """
            voicememo record --source tone:440@-20 > record.out 2> record.err &
            pid=$!
            wait_until 10 "the recording to serve its socket" status_has '"state": "recording"' || exit 3
            as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/nonexistent '\(binary)' "$@"; }
            as_nobody stop 2> closed.err
            echo "closed exited $?"
            chmod o+x "$WORK" "$WORK/run" "$WORK/run/voicememo"
            chmod o+rw "$WORK"/run/voicememo/*.sock
            as_nobody stop 2> opened.err
            echo "opened exited $?"
            setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 -c '
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            s.sendall(b"stop\\n")
            print(s.recv(200).decode(), end="")
            ' "$WORK"/run/voicememo/*.sock > raw.out 2> raw.err
            status_has '"state": "recording"' || exit 4
            voicememo stop > /dev/null || exit 5
            wait $pid
            """, timeout: .seconds(40))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput.contains("closed exited 1"), "\(outcome)")
        #expect(try read(sandbox, "closed.err").contains("Permission denied"))
        // voicememo itself sends nothing to a socket another user serves.
        #expect(outcome.standardOutput.contains("opened exited 1"), "\(outcome)")
        let declined = try read(sandbox, "opened.err")
        #expect(declined.contains(".sock is served by uid 0, not by this user; nothing was sent"), "\(declined)")
        // Any other client is refused by the server, by its uid.
        let raw = try read(sandbox, "raw.out")
        let rawError = try read(sandbox, "raw.err")
        #expect(raw == "error refused: uid 65534 is not uid 0, which owns this socket\n", "\(rawError)")
        #expect(try sandbox.listedMemos().count == 1, "the recording went on and was saved")
    }

    private func read(_ sandbox: VoiceMemoSandbox, _ name: String) throws -> String {
        try String(contentsOfFile: sandbox.file(name), encoding: .utf8)
    }
}
