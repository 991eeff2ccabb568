import Foundation
import Testing

/// `voicememo trim` and `voicememo split` as a script sees them: exact frames checked against
/// sox's own cut of the original, the original in Recently Deleted, bad input refused with the
/// cause, kill -9 at seeded moments and a full disk leaving a whole memo.
@Suite struct EditCommandTests {
    private func memo(_ sandbox: VoiceMemoSandbox, _ id: String, deleted: Bool = false) throws -> [String: Any]? {
        try sandbox.listedMemos(deleted: deleted).first { ($0["id"] as? Int).map(String.init) == id }
    }

    @Test func trimKeepsTheFramesSoxCutsFromTheOriginal() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Lecture", format: "wav", seconds: "3")
        let trimmed = try sandbox.run("trim", "Lecture", "--from", "0.5", "--to", "2.25")
        #expect(trimmed.status == 0, "\(trimmed)")
        let newID = trimmed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(newID != id && Int(newID) != nil, "\(trimmed)")
        #expect(trimmed.standardError.contains("memo \(id), is in Recently Deleted ('voicememo restore \(id)'"), "\(trimmed)")
        let kept = try #require(try memo(sandbox, newID))
        let original = try #require(try memo(sandbox, id, deleted: true))
        let sampleRate = try #require(original["sample_rate"] as? Int)
        #expect(kept["frames"] as? Int == sampleRate * 7 / 4, "\(kept)")
        #expect(kept["title"] as? String == "Lecture")
        let originalPath = try #require(original["path"] as? String)
        let keptPath = try #require(kept["path"] as? String)
        let start = sampleRate / 2
        let compare = try sandbox.shell("""
            sox "\(originalPath)" -t raw cut.raw trim \(start)s \(sampleRate * 7 / 4)s && sox "\(keptPath)" -t raw kept.raw && cmp cut.raw kept.raw && echo same
            """)
        #expect(compare.standardOutput.contains("same"), "sox's cut of the original and the trimmed memo differ: \(compare)")

        let restored = try sandbox.run("restore", id)
        #expect(restored.status == 0, "\(restored)")
        #expect(try memo(sandbox, id)?["frames"] as? Int == sampleRate * 3)
    }

    @Test func splitFramesAddUpAndTheHalvesAreNumbered() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Call", format: "flac", seconds: "2")
        #expect(try sandbox.run("mark", id, "1.5", "--label", "late").status == 0)
        let split = try sandbox.run("split", id, "0.75", "--json")
        #expect(split.status == 0, "\(split)")
        let halves = try #require(try JSONSerialization.jsonObject(with: Data(split.standardOutput.utf8)) as? [[String: Any]])
        #expect(halves.map { $0["title"] as? String } == ["Call (1)", "Call (2)"], "\(halves)")
        let frames = halves.compactMap { $0["frames"] as? Int }
        let original = try #require(try memo(sandbox, id, deleted: true))
        #expect(frames.reduce(0, +) == original["frames"] as? Int, "\(frames) of \(original)")
        #expect(frames.first == 36_000)
        let secondID = try #require(halves.last?["id"] as? Int)
        let second = try #require(try memo(sandbox, String(secondID)))
        let markers = second["markers"] as? [[String: Any]]
        #expect(markers?.map { $0["time"] as? Double } == [0.75] && markers?.first?["label"] as? String == "late", "\(second)")
        let joined = try sandbox.shell("""
            sox "\(halves[0]["path"] as? String ?? "")" "\(halves[1]["path"] as? String ?? "")" -t raw joined.raw && sox "\(original["path"] as? String ?? "")" -t raw whole.raw && cmp joined.raw whole.raw && echo same
            """)
        #expect(joined.standardOutput.contains("same"), "\(joined)")
    }

    @Test func lossyTrimSaysItEncodedAgain() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "Voice", format: "ogg", seconds: "2")
        let trimmed = try sandbox.run("trim", "Voice", "--to", "1")
        #expect(trimmed.status == 0, "\(trimmed)")
        #expect(trimmed.standardError.contains("note: Vorbis is lossy: the kept audio was decoded and encoded again"), "\(trimmed)")
    }

    /// Bad input: exit 2 (1 for what is not there), the cause named, nothing changed.
    @Test(arguments: [
        (["trim", "Tone", "--from", "3", "--to", "1"], 2, "--to: \"1s\" is not after --from 3s"),
        (["trim", "Tone", "--to", "9"], 2, "goes past the end of the memo (it is 2 s long)"),
        (["trim", "Tone", "--from", "2"], 2, "nothing would be kept: the start (2 s) is not before the end of the memo (it is 2 s long)"),
        (["trim", "Tone", "--from", "5"], 2, "nothing would be kept: the start (5 s) is not before the end of the memo (it is 2 s long)"),
        (["trim", "Tone", "--from", "0"], 2, "the range is the whole memo"),
        (["trim", "Tone"], 2, "give --from T, --to T or --remove-silences"),
        (["trim", "Tone", "--to", "1", "--keep-pause", "1"], 2, "--keep-pause only works with --remove-silences"),
        (["trim", "Tone", "--remove-silences", "--silence-below", "5"], 2, "--silence-below"),
        (["trim", "Tone", "--remove-silences"], 2, "no pause longer than 0.5 s below -50 dBFS"),
        (["trim", "Tone", "--to", "soon"], 2, "--to"),
        (["split", "Tone", "0"], 2, "0 s is not inside the memo"),
        (["split", "Tone", "-0"], 2, "0 s is not inside the memo: split between 0 and 2 s (both ends excluded)"),
        (["split", "Tone", "2"], 2, "2 s is not inside the memo"),
        (["split", "Tone", "5m"], 2, "300 s is not inside the memo"),
        (["split", "Tone"], 2, "AT"),
        (["split", "77", "1"], 1, "no memo with id 77"),
    ])
    func badInputIsRefusedAndNothingChanges(arguments: [String], status: Int32, cause: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Tone", seconds: "2")
        let outcome = try sandbox.run(arguments: arguments)
        #expect(outcome.status == status, "\(outcome)")
        #expect(outcome.standardError.contains(cause), "\(outcome)")
        #expect(try sandbox.listedMemos().compactMap { $0["id"] as? Int }.map(String.init) == [id])
        #expect(try sandbox.listedMemos(deleted: true).isEmpty)
    }

    /// A damaged memo has no length, so its range was refused ("nothing would
    /// be kept", exit 2) before the damage was looked at. Now trim names the damage, exit 1, as
    /// split and export do.
    @Test func aDamagedMemoIsRefusedForItsDamage() throws {
        let sandbox = try VoiceMemoSandbox()
        try Data("not audio at all\n".utf8).write(to: sandbox.libraryDirectory.appendingPathComponent("notes.wav"))
        #expect(try sandbox.listedMemos().first?["state"] as? String == "damaged")
        for arguments in [["trim", "notes", "--to", "1"], ["trim", "notes", "--from", "1"], ["split", "notes", "1"]] {
            let outcome = try sandbox.run(arguments: arguments)
            #expect(outcome.status == 1, "\(arguments): \(outcome)")
            #expect(outcome.standardError.contains("notes.wav") && outcome.standardError.contains("cannot be read as audio"), "\(arguments): \(outcome)")
            #expect(!outcome.standardError.contains("nothing would be kept"), "\(arguments): \(outcome)")
        }
        let after = try sandbox.listedMemos()
        #expect(after.count == 1 && after.first?["state"] as? String == "damaged", "\(after)")
        #expect(try sandbox.listedMemos(deleted: true).isEmpty)
    }

    /// A memo being recorded is refused, with the reason, and the recording goes on.
    @Test func aMemoBeingRecordedIsRefused() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.shell("""
            voicememo record --source tone:440@-6 --duration 20 --title Live > id.txt 2> record.err &
            pid=$!
            listed() { voicememo list --json 2>/dev/null | grep -q '"recording"'; }
            poll=0.05 wait_until 15 "list to show the memo as recording" listed
            voicememo trim Live --to 1; echo "trim=$?"
            voicememo split Live 0.5; echo "split=$?"
            kill -INT $pid; wait $pid; echo "record=$?"
            """)
        #expect(outcome.standardOutput.contains("trim=1") && outcome.standardOutput.contains("split=1"), "\(outcome)")
        #expect(outcome.standardError.contains("it is being recorded; it can be trimmed once the recording stops"), "\(outcome)")
        #expect(outcome.standardOutput.contains("record=0"), "\(outcome)")
        #expect(try sandbox.listedMemos().first?["state"] as? String == "complete")
    }

    /// Seeded moments for the kill -9 loop, spread over 0…`span` seconds.
    static func killDelays(seed: UInt64, count: Int, span: Double) -> [Double] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * span
        }
    }

    /// kill -9 at seeded moments of a trim and of a split: afterwards (the next opening) either
    /// the original is in the library, whole, or the new memos are, whole, with the original
    /// in Recently Deleted; never neither, never a part, never a leftover temporary file.
    @Test(arguments: ["trim", "split"])
    func killNineDuringAnEditLeavesTheOriginalOrTheResult(command: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Long", format: "flac", seconds: "60")
        let original = try #require(try memo(sandbox, id))
        let frames = try #require(original["frames"] as? Int)
        let edit = command == "trim" ? "trim \(id) --from 5 --to 55" : "split \(id) 20"
        // How long the edit takes here, for the span of the kill moments.
        let timing = try sandbox.shell("""
            cp -a "$VOICEMEMO_HOME" timing
            s=$EPOCHREALTIME; VOICEMEMO_HOME=timing voicememo \(edit) > /dev/null; e=$EPOCHREALTIME
            echo "$s $e"
            """, timeout: .seconds(120))
        let times = timing.standardOutput.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        let took = try #require(times.count == 2 ? times[1] - times[0] : nil, "\(timing)")
        let delays = Self.killDelays(seed: command == "trim" ? 0x7121 : 0x5917, count: 8, span: took * 1.3)
        let script = delays.enumerated().map { index, delay in
            """
            cp -a "$VOICEMEMO_HOME" lib\(index)
            VOICEMEMO_HOME=lib\(index) voicememo \(edit) > /dev/null 2>&1 &
            pid=$!
            sleep \(String(format: "%.3f", delay))
            kill -9 $pid 2>/dev/null
            wait $pid 2>/dev/null
            """
        }.joined(separator: "\n") + "\nexit 0"
        let killed = try sandbox.shell(script, timeout: .seconds(300))
        #expect(killed.status == 0, "\(killed)")
        var outcomes: [String: Int] = [:]
        for index in delays.indices {
            let library = sandbox.file("lib\(index)")
            var environment = sandbox.environment
            environment["VOICEMEMO_HOME"] = library
            let present = try ProcessRunner.run(try VoiceMemoBinary.url(), arguments: ["list", "--json"], environment: environment)
            let deleted = try ProcessRunner.run(try VoiceMemoBinary.url(), arguments: ["list", "--json", "--deleted"], environment: environment)
            let inLibrary = try #require(try JSONSerialization.jsonObject(with: Data(present.standardOutput.utf8)) as? [[String: Any]], "\(present)")
            let inTrash = try #require(try JSONSerialization.jsonObject(with: Data(deleted.standardOutput.utf8)) as? [[String: Any]], "\(deleted)")
            let states = Set((inLibrary + inTrash).compactMap { $0["state"] as? String })
            #expect(states == ["complete"], "kill at \(delays[index]) s: \(inLibrary) \(inTrash)")
            let originalThere = inLibrary.contains { ($0["id"] as? Int).map(String.init) == id && $0["frames"] as? Int == frames }
            let expected = command == "trim" ? [frames * 50 / 60] : [frames / 3, frames - frames / 3]
            let resultThere = inLibrary.compactMap { $0["frames"] as? Int }.sorted() == expected.sorted()
                && inTrash.contains { ($0["id"] as? Int).map(String.init) == id }
            #expect(originalThere != resultThere, "kill at \(delays[index]) s: exactly one of the two: \(inLibrary) \(inTrash)")
            outcomes[originalThere ? "original" : "result", default: 0] += 1
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: library).filter { $0.contains(".edit-") }
            #expect(leftovers.isEmpty, "the next opening removes an abandoned copy: \(leftovers)")
        }
        print("EditCommandTests: kill -9 during \(command) (\(String(format: "%.2f", took)) s): \(outcomes)")
    }

    /// What a killed trim leaves is removed at the next opening and named as
    /// what it was, an edit's new memo, not "a copy an interrupted rename left behind".
    @Test func theLeftoverOfAKilledTrimIsNamedForWhatItWas() throws {
        let sandbox = try VoiceMemoSandbox()
        // 20 minutes, so that the new memo's hidden file outlasts a starved poll: with 30 s
        // of audio the trim wrote it for well under 0.1 s, and a poll slowed to 0.7 s never
        // saw it ("no copy seen"); now it is there for about 4 s on a quiet machine.
        // (Recording them takes about 5 s here, so the limit is more than the default 30 s.)
        let id = try sandbox.recordMemo(title: "Long", format: "flac", seconds: "20m", timeout: .seconds(180))
        let library = sandbox.libraryDirectory.path
        let killed = try sandbox.shell("""
            voicememo trim \(id) --from 1 --to 1199 > /dev/null 2>&1 &
            pid=$!
            deadline=$((SECONDS + 60))
            until ls -a "\(library)" | grep -q '\\.edit-'; do
              if ! kill -0 $pid 2>/dev/null || [ $SECONDS -ge $deadline ]; then echo "no copy seen"; exit 1; fi
              sleep 0.05
            done
            kill -9 $pid
            wait $pid 2>/dev/null
            ls -a "\(library)" | grep '\\.edit-'
            """, timeout: .seconds(90))
        #expect(killed.status == 0, "\(killed)")
        let leftover = try #require(killed.standardOutput.split(separator: "\n").first.map(String.init), "\(killed)")
        let list = try sandbox.run("list")
        #expect(list.status == 0, "\(list)")
        #expect(list.standardError.contains("removed \(library)/\(leftover)"), "\(list.standardError)")
        #expect(list.standardError.contains("part of a new memo an interrupted trim, split or silence removal was writing; the original memo is whole"), "\(list.standardError)")
        #expect(!list.standardError.contains("rename"), "\(list.standardError)")
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1 && memos.first?["frames"] as? Int == 48_000 * 1200, "the original, whole: \(memos)")
    }

    /// A trim that does not fit on the disk stops naming the cause, removes what it wrote and
    /// keeps the original; with room again the same trim works.
    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"))
    func trimOnAFullDiskStopsAndKeepsTheOriginal() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.onTmpfs(size: "2m", """
              voicememo record --source tone:440@-6 --format wav --channels 2 --duration 6 --title "Big" > id.txt 2> record.err
              echo "record=$?"
              voicememo trim Big --from 0.5 > trim.out 2> trim.err; echo "trim=$?"
              ls -a mnt/library > after.txt
              voicememo list --json > list.json 2> list.err; echo "list=$?"
              mount -o remount,size=4m mnt
              voicememo trim Big --from 0.5 > again.out 2> again.err; echo "again=$?"
            """)
        #expect(outcome.standardOutput.contains("record=0"), "\(outcome)")
        #expect(outcome.standardOutput.contains("trim=1"), "\(outcome)")
        let message = try String(contentsOfFile: sandbox.file("trim.err"), encoding: .utf8)
        #expect(message.contains("was not changed: the disk is full (ENOSPC)"), "\(message)")
        let after = try String(contentsOfFile: sandbox.file("after.txt"), encoding: .utf8)
        #expect(!after.contains(".edit-"), "what the trim wrote is removed: \(after)")
        let list = try String(contentsOfFile: sandbox.file("list.json"), encoding: .utf8)
        let memos = try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]]
        #expect(memos?.count == 1 && memos?.first?["frames"] as? Int == 288_000 && memos?.first?["state"] as? String == "complete", "\(list)")
        #expect(outcome.standardOutput.contains("again=0"), "\(outcome) \((try? String(contentsOfFile: sandbox.file("again.err"), encoding: .utf8)) ?? "")")
    }
}

/// `voicememo waveform`: a known signal drawn, JSON, bad input.
@Suite struct WaveformCommandTests {
    /// Silence, a full-scale burst, silence: dropped into the library (adopted), then drawn.
    @Test func aBurstInSilenceIsDrawnWhereItIs() throws {
        let sandbox = try VoiceMemoSandbox()
        let made = try sandbox.shell("""
            sox -D -n -r 48000 -c 1 -b 16 burst.wav synth 1 sine 1000 vol 0.99 pad 1.5 1.5 && mkdir -p "$VOICEMEMO_HOME" && cp burst.wav "$VOICEMEMO_HOME"/burst.wav
            """)
        #expect(made.status == 0, "\(made)")
        let drawn = try sandbox.run("waveform", "burst", "--width", "20")
        #expect(drawn.status == 0, "\(drawn)")
        #expect(drawn.standardOutput == "       ██████       \n", "\(drawn)")
        var environment = sandbox.environment
        environment["COLUMNS"] = "80"
        let wide = try ProcessRunner.run(try VoiceMemoBinary.url(), arguments: ["waveform", "burst"], environment: environment)
        #expect(wide.standardOutput == String(repeating: " ", count: 30) + String(repeating: "█", count: 20) + String(repeating: " ", count: 30) + "\n", "\(wide)")
        let json = try sandbox.run("waveform", "burst", "--width", "4", "--json")
        #expect(json.standardOutput == "{\"id\": 1, \"duration\": 4, \"width\": 4, \"peaks_db\": [-160, 0, 0, -160]}\n", "\(json)")
    }

    @Test(arguments: [
        (["waveform", "Tone", "--width", "0"], 2, "--width"),
        (["waveform", "Tone", "--width", "wide"], 2, "--width"),
        (["waveform"], 2, "MEMO"),
        (["waveform", "88"], 1, "no memo with id 88"),
    ])
    func badInputIsRefused(arguments: [String], status: Int32, cause: String) throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "Tone", seconds: "1")
        let outcome = try sandbox.run(arguments: arguments)
        #expect(outcome.status == status, "\(outcome)")
        #expect(outcome.standardError.contains(cause), "\(outcome)")
    }
}
