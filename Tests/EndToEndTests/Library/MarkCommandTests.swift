import Foundation
import Testing

/// `voicememo mark`, markers in `list --json`, `export --labels`, as a script sees them.
@Suite struct MarkCommandTests {
    private func markers(_ sandbox: VoiceMemoSandbox, deleted: Bool = false) throws -> [[String: Any]] {
        try sandbox.listedMemos(deleted: deleted).first?["markers"] as? [[String: Any]] ?? []
    }

    @Test func markAddsMarkersThatListAndExportShowInOrder() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Interview", seconds: "5")
        for arguments in [["Interview", "00:03", "--label", "second question"], ["Interview", "1.5s"], [id, "4", "--label", "Ende – fin 🎙️"]] {
            let outcome = try sandbox.run(arguments: ["mark"] + arguments)
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.standardOutput == id + "\n")
        }
        let listed = try markers(sandbox)
        #expect(listed.map { $0["time"] as? Double } == [1.5, 3, 4], "\(listed)")
        #expect(listed.map { $0["label"] as? String } == ["", "second question", "Ende – fin 🎙️"])

        let labels = sandbox.file("labels.txt")
        let exported = try sandbox.run("export", "Interview", "--labels", labels)
        #expect(exported.status == 0, "\(exported)")
        #expect(exported.standardOutput == labels + "\n")
        let text = try String(contentsOfFile: labels, encoding: .utf8)
        #expect(text == "1.500000\t1.500000\t\n3.000000\t3.000000\tsecond question\n4.000000\t4.000000\tEnde – fin 🎙️\n")

        let both = try sandbox.run("export", "Interview", sandbox.file("copy.wav"), "--labels", sandbox.file("copy.txt"))
        #expect(both.status == 0, "\(both)")
        #expect(FileManager.default.fileExists(atPath: sandbox.file("copy.wav")))
        #expect(try String(contentsOfFile: sandbox.file("copy.txt"), encoding: .utf8) == text)
    }

    @Test func markersFollowTheMemoToRecentlyDeletedAndGoWithAPurge() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Gone", seconds: "1")
        #expect(try sandbox.run("mark", id, "0.5").status == 0)
        #expect(try sandbox.run("delete", id).status == 0)
        #expect(try markers(sandbox, deleted: true).count == 1, "kept in Recently Deleted")
        #expect(try sandbox.run("mark", id, "0.2").status == 1, "a deleted memo is reached only from Recently Deleted")
        #expect(try sandbox.run("restore", id).status == 0)
        #expect(try markers(sandbox).count == 1)
        #expect(try sandbox.run("delete", id).status == 0)
        #expect(try sandbox.run("purge", id).status == 0)
        let again = try sandbox.recordMemo(title: "New", seconds: "1")
        #expect(again != id)
        #expect(try markers(sandbox).isEmpty, "a purged memo's markers went with it")
    }

    /// Bad input: exit 2 (1 for a memo that is not there), a message naming the cause,
    /// nothing stored.
    @Test(arguments: [
        (["mark", "Tone", "9"], 2, "9 s is past the end of the memo (it is 2 s long)"),
        (["mark", "Tone", "2.001"], 2, "2.001 s is past the end of the memo (it is 2 s long)"),
        (["mark", "Tone", "-1"], 2, "AT"),
        (["mark", "Tone", "soon"], 2, "AT"),
        (["mark", "Tone", "1", "--label", "two\nlines"], 2, "a label cannot hold control characters"),
        (["mark", "Tone", "1", "--label", ""], 2, "--label"),
        (["mark", "Tone"], 2, "AT"),
        (["mark", "77", "1"], 1, "no memo with id 77"),
        (["mark", "Nothing like it", "1"], 1, "Nothing like it"),
        (["export", "Tone"], 2, "missing PATH (or --labels FILE)"),
    ])
    func badInputIsRefusedAndNothingIsStored(arguments: [String], status: Int32, cause: String) throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "Tone", seconds: "2")
        let outcome = try sandbox.run(arguments: arguments)
        #expect(outcome.status == status, "\(outcome)")
        #expect(outcome.standardError.contains(cause), "\(outcome)")
        #expect(try markers(sandbox).isEmpty)
    }

    /// The help said markers were not in the file; they are, for these formats.
    @Test func helpSaysWhichFilesHoldTheMarkers() throws {
        let sandbox = try VoiceMemoSandbox()
        let help = try sandbox.run("mark", "--help")
        #expect(help.status == 0, "\(help)")
        let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!text.contains("not yet in the memo's file"), "\(text)")
        #expect(text.contains("written into the memo's file for WAV, FLAC, Ogg Vorbis, Ogg Opus and AIFF"), "\(text)")
        #expect(text.contains("into MP3, CAF and M4A (AAC) files: theirs are in the index only"), "\(text)")
    }

    @Test func labelsAreNotWrittenIntoTheLibraryOrOverAFile() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "Tone", seconds: "1")
        #expect(try sandbox.run("mark", "Tone", "0.5").status == 0)
        let inside = try sandbox.run("export", "Tone", "--labels", sandbox.libraryDirectory.path + "/labels.txt")
        #expect(inside.status != 0, "\(inside)")
        let existing = sandbox.file("kept.txt")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        let over = try sandbox.run("export", "Tone", "--labels", existing)
        #expect(over.status != 0 && over.standardError.contains("already exists"), "\(over)")
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
        #expect(try sandbox.run("export", "Tone", "--labels", existing, "--force").status == 0)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "0.500000\t0.500000\t\n")
    }
}
