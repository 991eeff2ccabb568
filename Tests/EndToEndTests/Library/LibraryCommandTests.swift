import Foundation
import SoundFiles
import Testing

/// `list`, `rename`, `delete`, `restore`, `purge`, `export` and `record` into the library, as a script sees them.
@Suite struct LibraryCommandTests {
    static let jsonKeys = [
        "id", "title", "created", "duration", "frames", "sample_rate", "channels", "format", "encoding", "path",
        "size", "peak_db", "deleted_at", "deleted_reason", "state", "loudness_lufs", "true_peak_dbtp", "lra", "clips", "transcript", "markers",
        "tags", "starred",
    ]

    @Test func recordAddsAMemoThatListShows() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.run("record", "--source", "tone:1000@-12", "--duration", "1", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let recorded = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1)
        let listed = try #require(memos.first)
        #expect(Set(listed.keys) == Set(Self.jsonKeys))
        #expect(Set(recorded.keys) == Set(Self.jsonKeys), "record --json has list --json's shape")
        #expect(listed["id"] as? Int == recorded["id"] as? Int)
        #expect(listed["state"] as? String == "complete")
        #expect(listed["frames"] as? Int == 48_000)
        #expect(listed["format"] as? String == "flac")
        #expect(abs((listed["peak_db"] as? Double ?? 0) + 12) < 0.1)
        #expect(listed["deleted_at"] is NSNull)
        #expect((listed["title"] as? String)?.hasPrefix("Memo 20") == true)
        let path = try #require(listed["path"] as? String)
        #expect(path.hasPrefix(sandbox.libraryDirectory.path + "/"))
        #expect(try SoundFileReader(path: path).metadata.title == listed["title"] as? String, "the title is in the file's tags")
    }

    @Test func hostileTitlesRoundTripThroughRenameAndList() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "plain")
        let titles = [
            "../../../tmp/escape", "a/b/c", "..", "\u{1B}[2J\u{1B}]0;owned\u{07}osc", "\u{202E}txt.exe",
            "🎙️ Интервью 会議メモ", "tab\tand\nnewline",
        ]
        for title in titles {
            let rename = try sandbox.run("rename", id, title)
            #expect(rename.status == 0, "\(rename)")
            #expect(try sandbox.listedMemos().first?["title"] as? String == title)
            let human = try sandbox.run("list")
            #expect(!human.standardOutput.contains("\u{1B}"), "no raw escape reaches the terminal")
            #expect(!human.standardOutput.contains("\u{202E}"))
        }
        let library = try FileManager.default.contentsOfDirectory(atPath: sandbox.libraryDirectory.path)
        #expect(library.filter { !$0.hasPrefix(".") && !$0.hasPrefix("index.sqlite3") }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/escape"))
    }

    @Test(arguments: [("", "empty"), ("   ", "empty"), (String(repeating: "x", count: 501), "501 characters"),
                      (String(repeating: "y", count: 10_000), "10000 characters")])
    func badTitlesAreUsageErrors(title: String, words: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "kept")
        let outcome = try sandbox.run("rename", id, title)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains(words), "\(outcome.standardError)")
        #expect(try sandbox.listedMemos().first?["title"] as? String == "kept")
        let record = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.1", "--title", title)
        #expect(record.status == 2, "\(record)")
        #expect(try sandbox.listedMemos().count == 1, "a refused title records nothing")
    }

    @Test func badAndAmbiguousMemoReferences() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "Idea one")
        _ = try sandbox.recordMemo(title: "Idea two")
        let ambiguous = try sandbox.run("delete", "Idea")
        #expect(ambiguous.status == 2, "\(ambiguous)")
        #expect(ambiguous.standardError.contains("Idea one") && ambiguous.standardError.contains("Idea two"))
        let missing = try sandbox.run("export", "Nothing like it", sandbox.file("x.wav"))
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.standardError.contains("no memo"))
        let badID = try sandbox.run("rename", "9999", "New")
        #expect(badID.status == 1, "\(badID)")
        #expect(try sandbox.listedMemos().count == 2)
    }

    @Test func deleteRestorePurgeAndExport() throws {
        let sandbox = try VoiceMemoSandbox()
        let keep = try sandbox.recordMemo(title: "Keep")
        let gone = try sandbox.recordMemo(title: "Gone")
        #expect(try sandbox.run("delete", "Gone").status == 0)
        #expect(try sandbox.listedMemos().count == 1)
        let deleted = try sandbox.listedMemos(deleted: true)
        #expect(deleted.first?["deleted_at"] is String)
        #expect(deleted.first?["deleted_reason"] as? String == "deleted")
        #expect((deleted.first?["path"] as? String)?.contains("/.trash/") == true)
        let table = try sandbox.run("list", "--deleted")
        #expect(table.standardOutput.contains("Purged in") && table.standardOutput.contains("30 days left"), "\(table)")
        #expect(table.standardOutput.contains("Why") && table.standardOutput.contains("deleted  "), "\(table)")
        #expect(try sandbox.run("restore", gone).status == 0)
        #expect(try sandbox.listedMemos().count == 2)
        #expect(try sandbox.run("delete", gone).status == 0)
        let purge = try sandbox.run("purge", "Gone")
        #expect(purge.status == 0, "\(purge)")
        #expect(try sandbox.listedMemos(deleted: true).isEmpty)

        let export = try sandbox.run("export", keep, sandbox.file("keep.ogg"))
        #expect(export.status == 0, "\(export)")
        #expect(try SoundFileReader(path: sandbox.file("keep.ogg")).info.format == .ogg)
        let refused = try sandbox.run("export", keep, sandbox.file("k.mp3"), "--format", "opus")
        #expect(refused.status == 1, "\(refused)")
    }

    @Test func humanListFitsTheWidth() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "会議メモ 🎙️ with a rather long title that will not fit in forty columns")
        for width in [20, 40, 80, 160] {
            sandbox.environment["COLUMNS"] = String(width)
            let outcome = try sandbox.run("list")
            #expect(outcome.status == 0)
            for line in outcome.standardOutput.split(separator: "\n") {
                #expect(Self.columns(String(line)) <= width, "\(width): \(line)")
            }
        }
        sandbox.environment["COLUMNS"] = "100"
        #expect(try sandbox.run("list").standardOutput.contains("会議メモ"))
    }

    @Test func emptyLibrarySaysHowToStart() throws {
        let outcome = try VoiceMemoSandbox().run("list")
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("voicememo record"))
    }

    /// Terminal columns: CJK and emoji count 2.
    private static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            if scalar.properties.generalCategory == .nonspacingMark || scalar.value == 0xFE0F { return total }
            let wide = (0x2E80...0x9FFF).contains(scalar.value) || (0xFF00...0xFF60).contains(scalar.value)
                || scalar.properties.isEmojiPresentation
            return total + (wide ? 2 : 1)
        }
    }
}
