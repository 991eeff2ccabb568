import TestSupport
import Foundation
import SoundFiles
import Testing

/// What scripts rely on: `record` printing the id at once, `export` never replacing a file by
/// accident, `rename` surviving a rebuilt index, adopted files listing their real peak.
@Suite struct LibraryScriptingTests {
    @Test func recordPrintsTheIDWhileStillRecording() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.shell("""
            voicememo record --source tone:440@-6 --title "Long one" > id.txt &
            pid=$!
            wait_until 5 "record to print the memo's id" test -s id.txt
            cp id.txt early.txt
            voicememo list --json > during.json
            kill -INT $pid
            wait $pid; echo "status=$?"
            """)
        #expect(outcome.standardOutput.contains("status=0"), "\(outcome)")
        let early = try String(contentsOfFile: sandbox.file("early.txt"), encoding: .utf8)
        let final = try String(contentsOfFile: sandbox.file("id.txt"), encoding: .utf8)
        #expect(early == "1\n", "the id is out while recording runs")
        #expect(final == early, "and is not printed a second time at the end")
        let during = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sandbox.file("during.json")))) as? [[String: Any]])
        #expect(during.first?["id"] as? Int == 1)
        #expect(during.first?["state"] as? String == "recording")
        #expect(try sandbox.listedMemos().first?["state"] as? String == "complete")
    }

    @Test func recordJSONPrintsOnlyTheMemoAtTheEnd() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.2", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let object = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
        #expect(object?["id"] as? Int == 1, "one JSON object, no bare id before it: \(outcome.standardOutput)")
    }

    @Test func recordInterruptedBeforeAnyAudioRemovesTheMemoItPrinted() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.shell("""
            voicememo record --source tone:440@-6 --delay 30 > id.txt &
            pid=$!
            wait_until 5 "record to print the memo's id" test -s id.txt
            kill -INT $pid
            wait $pid; echo "status=$?"
            """)
        #expect(outcome.standardOutput.contains("status=130"), "\(outcome)")
        #expect(try String(contentsOfFile: sandbox.file("id.txt"), encoding: .utf8) == "1\n")
        #expect(try sandbox.listedMemos().isEmpty, "nothing was kept, so the memo is gone again")
        #expect(try sandbox.run("record", "--help").standardOutput.contains("as soon as the input is open"))
    }

    @Test func exportRefusesToReplaceUnlessForced() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Exported", format: "wav")
        let target = sandbox.file("out.wav")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: target))

        let refused = try sandbox.run("export", id, target)
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.standardError.contains(target) && refused.standardError.contains("--force"), "\(refused.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("precious".utf8), "untouched")

        let failing = try sandbox.run("export", id, target, "--force", "--format", "opus")
        #expect(failing.status == 1, "a refused conversion: \(failing)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("precious".utf8), "a failed --force keeps the old file")

        let forced = try sandbox.run("export", id, target, "--force")
        #expect(forced.status == 0, "\(forced)")
        #expect(try SoundFileReader(path: target).info.format == .wav)
        let converted = try sandbox.run("export", id, sandbox.file("out.flac"), "--force")
        #expect(converted.status == 0, "--force with nothing to replace: \(converted)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.file("")).filter { $0.contains(".export-") }
        #expect(leftovers.isEmpty, "\(leftovers)")

        // A folder is never replaced: the copy goes into it, named after the title.
        let folder = try sandbox.run("export", id, sandbox.file(""), "--force")
        #expect(folder.status == 0, "\(folder)")
        #expect(try SoundFileReader(path: sandbox.file("Exported.wav")).info.format == .wav)
        #expect(try sandbox.run("export", "--help").standardOutput.contains("--force"))
    }

    @Test(arguments: ["wav", "flac", "ogg", "opus", "mp3", "caf", "aiff"])
    func renamedTitleSurvivesARebuiltIndex(format: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Before", format: format)
        let title = "After 会議"
        let rename = try sandbox.run("rename", id, title)
        #expect(rename.status == 0, "\(rename)")
        for name in ["index.sqlite3", "index.sqlite3-wal", "index.sqlite3-shm"] {
            try? FileManager.default.removeItem(atPath: sandbox.libraryDirectory.path + "/" + name)
        }
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1)
        #expect(memos.first?["title"] as? String == title, "\(format): \(memos)")
        #expect(memos.first?["id"] as? Int == Int(id), "the id comes back from the file's comment")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: sandbox.libraryDirectory.path).filter { $0.contains(".retag-") }
        #expect(hidden.isEmpty)
    }

    @Test func renameSaysWhenOnlyTheIndexHasTheTitle() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let record = try sandbox.run(
            "record", "--source", "tone:440@-6", "--duration", "0.2", "--format", "wav", "--encoding", "ima-adpcm")
        #expect(record.status == 0, "\(record)")
        let rename = try sandbox.run("rename", "1", "Coded")
        #expect(rename.status == 0, "\(rename)")
        #expect(rename.standardError.contains("index only") && rename.standardError.contains("ima-adpcm"), "\(rename.standardError)")
        let plain = try sandbox.recordMemo(title: "Plain")
        let quiet = try sandbox.run("rename", plain, "Plain too")
        #expect(quiet.standardError.isEmpty, "\(quiet)")
    }

    @Test func adoptedFileListsItsRealPeak() throws {
        let sandbox = try VoiceMemoSandbox()
        try FileManager.default.createDirectory(at: sandbox.libraryDirectory, withIntermediateDirectories: true)
        try TestSignals.writeSines(to: sandbox.libraryDirectory.path + "/dropped.wav", levels: [-9, -20])
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(abs((memo["peak_db"] as? Double ?? -160) + 9) < 0.05, "\(memo)")
        #expect(memo["frames"] as? Int == 48_000)
    }
}
