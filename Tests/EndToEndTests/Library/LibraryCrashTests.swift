import Foundation
import SoundFiles
import Testing

/// The library under stress: kill -9, two recorders at once, a read-only folder, a locked index.
@Suite struct LibraryCrashTests {
    @Test(arguments: ["flac", "wav", "ogg"])
    func killNineDuringRecordIsRecoveredOnNextList(format: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let recordedFor = try sandbox.recordThenKillNine(
            "voicememo record --source tone:440@-6 --format \(format) --title \"Crashed\" > id.txt",
            startedWhen: """
                [ -n "$(ls -A "$VOICEMEMO_HOME"/.locks 2>/dev/null)" ] && \
                { [ -n "$(ls "$VOICEMEMO_HOME" | grep -v index)" ] || [ -n "$(ls -a "$VOICEMEMO_HOME" | grep partial)" ]; }
                """)
        let list = try sandbox.run("list", "--json")
        #expect(list.standardError.contains("recovered"), "\(list)")
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1)
        let memo = try #require(memos.first)
        #expect(memo["state"] as? String == "recovered")
        #expect(memo["title"] as? String == "Crashed")
        let printedID = try String(contentsOfFile: sandbox.file("id.txt"), encoding: .utf8)
        #expect(printedID == "\(memo["id"] as? Int ?? -1)\n", "the id was printed before the recorder was killed")
        // Vorbis is lossy: its decoded peak wanders a little from the −6 dBFS tone.
        let tolerance = format == "ogg" ? 1.0 : 0.1
        #expect((memo["peak_db"] as? Double).map { abs($0 + 6) < tolerance } == true, "the peak is measured at recovery: \(memo)")
        let duration = memo["duration"] as? Double ?? 0
        #expect(abs(duration - recordedFor) <= 0.5, "\(format): \(duration) s listed, about \(recordedFor) s recorded")
        let reader = try SoundFileReader(path: try #require(memo["path"] as? String))
        #expect(abs(reader.info.duration - duration) < 0.05, "the file plays what the index says")
        #expect(try sandbox.listedMemos().first?["state"] as? String == "recovered", "recovered once, stays so")
    }

    @Test func twoRecordersIntoOneLibrary() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.shell("""
            voicememo record --source tone:440@-6 --duration 2 --title "First" > a.txt &
            a=$!
            voicememo record --source tone:880@-6 --duration 2 --format wav --title "Second" > b.txt &
            b=$!
            # Both print their id once recording; one that exits first (an error) ends the wait.
            printed() { { [ -s a.txt ] && [ -s b.txt ]; } || ! kill -0 $a 2>/dev/null || ! kill -0 $b 2>/dev/null; }
            wait_until 30 "both recorders to print their ids" printed
            voicememo list --json > during.json
            wait $a; echo "a=$?"
            wait $b; echo "b=$?"
            sqlite3 "$VOICEMEMO_HOME/index.sqlite3" "PRAGMA integrity_check"
            """)
        // Two processes creating one index at once get SQLITE_BUSY without SQLite's busy handler
        // (it was "locked by another process" in 3 starts of 10): the opener waits that out too.
        #expect(outcome.standardOutput.contains("a=0"), "\(outcome)")
        #expect(outcome.standardOutput.contains("b=0"), "\(outcome)")
        #expect(outcome.standardOutput.contains("\nok"), "\(outcome)")
        let memos = try sandbox.listedMemos()
        #expect(Set(memos.compactMap { $0["title"] as? String }) == ["First", "Second"])
        #expect(memos.allSatisfy { $0["state"] as? String == "complete" })
        let during = try String(contentsOfFile: sandbox.file("during.json"), encoding: .utf8)
        #expect(!during.contains("recovered"), "a list while both record recovers nothing")
    }

    @Test func readOnlyLibraryListsAndRefusesWrites() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Read me")
        // As root every file is writable: run as `nobody`, for whom the root-owned library is read-only.
        // The build folder may sit where `nobody` cannot reach (a clone in a 0700 `mktemp -d`
        // folder, /root): the binary is copied into the sandbox, which is made reachable.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.libraryDirectory.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.directory.url.path)
        let outcome = try sandbox.shell("""
            chmod 644 "$VOICEMEMO_HOME"/index.sqlite3 "$VOICEMEMO_HOME"/*.wav
            mkdir -p bin && cp "$(command -v voicememo)" bin/voicememo && chmod 755 bin bin/voicememo
            as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp "$@"; }
            as_nobody test -x "$PWD/bin/voicememo" || echo "nobody cannot run $PWD/bin/voicememo (is a parent folder 0700?)" >&2
            as_nobody "$PWD/bin/voicememo" list --json; echo "list=$?"
            as_nobody "$PWD/bin/voicememo" rename \(id) "New title"; echo "rename=$?"
            """)
        #expect(outcome.standardOutput.contains("\"Read me\""), "\(outcome)")
        #expect(outcome.standardOutput.contains("list=0"), "\(outcome)")
        #expect(outcome.standardOutput.contains("rename=1"), "\(outcome)")
        #expect(outcome.standardError.contains("read-only"), "\(outcome)")
    }

    @Test func lockedIndexIsWaitedFor() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Before")
        let outcome = try sandbox.shell("""
            (echo "BEGIN EXCLUSIVE; UPDATE memos SET size = size;"; echo ".shell touch locked"; sleep 1; echo "COMMIT;") | sqlite3 "$VOICEMEMO_HOME/index.sqlite3" &
            wait_until 30 "sqlite3 to hold the index's lock (the file locked)" test -e locked
            voicememo rename \(id) "After"; echo "rename=$?"
            wait
            """)
        #expect(outcome.standardOutput.contains("rename=0"), "the busy timeout waits out a short lock: \(outcome)")
        #expect(try sandbox.listedMemos().first?["title"] as? String == "After")
    }
}
