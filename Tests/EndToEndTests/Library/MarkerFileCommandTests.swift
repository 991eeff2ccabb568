import Foundation
import Testing

/// Markers written into the memo's file by `voicememo mark`: deleting the index and listing
/// again (a rebuild from the files) brings them back for WAV, AIFF, FLAC and Ogg; `sndfile-info` (WAV, AIFF) and `ffprobe` (FLAC, Ogg) see them.
@Suite struct MarkerFileCommandTests {
    private func markers(_ sandbox: VoiceMemoSandbox) throws -> [[String: Any]] {
        try sandbox.listedMemos(deleted: false).first?["markers"] as? [[String: Any]] ?? []
    }

    private func removeIndex(_ sandbox: VoiceMemoSandbox) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: sandbox.libraryDirectory.path + "/index.sqlite3" + suffix)
        }
    }

    @Test(arguments: ["wav", "aiff", "flac", "ogg", "opus"])
    func markDeleteTheIndexRebuildMarkersBack(format: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Interview", format: format, seconds: "3")
        for arguments in [[id, "00:02", "--label", "second question"], [id, "0.5s"], [id, "2.5", "--label", "Ende – fin 🎙️"]] {
            let outcome = try sandbox.run(arguments: ["mark"] + arguments)
            #expect(outcome.status == 0 && outcome.standardError.isEmpty, "\(outcome)")
        }
        #expect(try sandbox.run("rename", id, "Interview, renamed").status == 0)
        let before = try markers(sandbox)
        #expect(before.count == 3)
        removeIndex(sandbox)
        let listed = try sandbox.listedMemos(deleted: false)
        #expect(listed.first?["id"] as? Int == Int(id), "\(listed)")
        #expect(listed.first?["title"] as? String == "Interview, renamed")
        let after = try markers(sandbox)
        #expect(after.map { $0["time"] as? Double } == [0.5, 2, 2.5], "\(after)")
        #expect(after.map { $0["label"] as? String } == ["", "second question", "Ende – fin 🎙️"])

        let path = try #require(listed.first?["path"] as? String)
        if format == "wav" || format == "aiff" {
            let info = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/sndfile-info"), arguments: [path], environment: [:])
            let needle = format == "wav" ? "Offset : 96000" : "Position : 96000"
            let squeezed = info.standardOutput.replacingOccurrences(of: ":  ", with: ": ")
            #expect(squeezed.contains(needle), "libsndfile reads the point at 2 s: \(info.standardOutput)")
        } else {
            // FFmpeg reads Vorbis CHAPTERxxx comments (FLAC and Ogg) as chapters: another reader agrees.
            let probe = try sandbox.shell(
                "ffprobe -v error -show_entries chapter=start_time:chapter_tags=title -of csv=p=0 '\(path)'")
            let starts = probe.standardOutput.split(separator: "\n").compactMap { line in
                line.split(separator: ",").first.flatMap { Double($0) }
            }
            #expect(starts == [0.5, 2, 2.5], "ffprobe's chapters: \(probe)")
            #expect(probe.standardOutput.contains("second question") && probe.standardOutput.contains("Ende – fin 🎙️"), "\(probe)")
        }
    }

    @Test func aFormatWithoutAPlaceKeepsMarkersInTheIndexOnly() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Compressed", format: "mp3", seconds: "1")
        let outcome = try sandbox.run("mark", id, "0.5")
        #expect(outcome.status == 0 && outcome.standardError.isEmpty, "\(outcome)")
        removeIndex(sandbox)
        #expect(try sandbox.listedMemos(deleted: false).count == 1)
        #expect(try markers(sandbox).isEmpty, "documented: MP3 files hold no markers here")
    }

    @Test func aFileThatCannotTakeThemSaysSoAndKeepsTheMarker() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Odd", format: "wav", seconds: "1")
        let path = try #require(try sandbox.listedMemos(deleted: false).first?["path"] as? String)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3]))
        try handle.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let outcome = try sandbox.run("mark", id, "0.5")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardError.contains("not written into the memo's file: the file is not laid out"), "\(outcome)")
        #expect(try markers(sandbox).count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }
}
