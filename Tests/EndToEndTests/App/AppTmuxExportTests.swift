import TestSupport
import Foundation
import SoundFiles
import Testing

/// `E` in the app: the export prompt proposes the title in the folder the app was started
/// in, the memo's own format is copied byte for byte, another extension converts, and an
/// existing file is never replaced.
@Suite(.serialized) struct AppTmuxExportTests {
    @Test func exportCopiesConvertsAndNeverReplaces() throws {
        let sandbox = try VoiceMemoSandbox()
        let recorded = try sandbox.run(
            "record", "--source", "tone:440@-12", "--duration", "1", "--format", "wav", "--title", "Standup")
        #expect(recorded.status == 0, "\(recorded)")
        let home = sandbox.directory.path("home").path
        let memoPath = try #require(try sandbox.listedMemos().first?["path"] as? String)
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source tone:440@-12", launcher: "cd '\(home)' &&")
        var screen = try app.waitForStart("Listening to tone:440@-12")
        screen = try app.waitFor("▶ Standup")

        try app.press("E")
        screen = try app.waitFor("Export to: ")
        #expect(screen.contains("/home/Standup.wav"), "the start folder (scrolled to the cursor at the end), the title, the memo's format: \(screen)")
        #expect(screen.contains("⏎ export") && screen.contains("Esc cancel"), "\(screen)")
        try app.press("Enter")
        screen = try app.waitFor("Exported “Standup”")
        let copy = home + "/Standup.wav"
        #expect(FileManager.default.contents(atPath: copy) == FileManager.default.contents(atPath: memoPath), "the same format is the file itself")

        // Again to the same path: refused, the file untouched.
        let before = try FileManager.default.attributesOfItem(atPath: copy)[.modificationDate] as? Date
        try app.press("E")
        _ = try app.waitFor("Export to: ")
        try app.press("Enter")
        screen = try app.waitFor("already exists")
        #expect(screen.contains("Not exported:"), "\(screen)")
        // The prompt comes back with the path as typed, for another name; Esc leaves it.
        #expect(screen.contains("Export to: ") && screen.contains("/home/Standup.wav"), "\(screen)")
        try app.press("Escape")
        _ = try app.waitUntil { !$0.contains("Export to: ") }
        #expect(try FileManager.default.attributesOfItem(atPath: copy)[.modificationDate] as? Date == before)
        #expect(FileManager.default.contents(atPath: copy) == FileManager.default.contents(atPath: memoPath))

        // Another extension converts: FLAC holding the same samples.
        try app.press("E")
        _ = try app.waitFor("Export to: ")
        try app.press("End")  // the name is selected: End leaves it for the extension's end
        for _ in 0..<3 { try app.press("BSpace") }
        try app.type("flac")
        try app.press("Enter")
        screen = try app.waitFor("Exported “Standup” to")
        #expect(screen.contains("Standup.flac"), "\(screen)")
        let original = try TestSignals.readInt16(memoPath)
        let converted = try TestSignals.readInt16(home + "/Standup.flac")
        #expect(converted.info.format == FileFormat.flac && converted.info.frames == original.info.frames)
        #expect(converted.samples == original.samples, "FLAC is lossless: the same samples")

        // A folder that does not exist: the cause, nothing written, the memo as it was.
        screen = try Self.export(app, to: "\(home)/no/such/folder/x.wav", until: "Cannot export:")
        #expect(!FileManager.default.fileExists(atPath: home + "/no"), "\(screen)")
        #expect(screen.contains("Cannot export: the folder") && screen.contains("/no/such/folder/x.wav"), "the typed path is kept: \(screen)")
        try app.press("Escape")
        _ = try app.waitUntil { !$0.contains("Export to: ") }
        #expect(try sandbox.listedMemos().count == 1)

        // A folder ending in `/`: the copy is named after the title in it, as `voicememo export
        // MEMO FOLDER/` does (the prompt refused it, though it took the folder without the `/`).
        try FileManager.default.createDirectory(atPath: home + "/exports", withIntermediateDirectories: false)
        screen = try Self.export(app, to: "\(home)/exports/", until: "Exported “Standup” to")
        #expect(
            FileManager.default.contents(atPath: home + "/exports/Standup.wav") == FileManager.default.contents(atPath: memoPath),
            "\(screen)")

        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// `E`, the prompt's line replaced by `path`, ⏎; the screen once it shows `answer`.
    static func export(_ app: AppTmuxSession, to path: String, until answer: String) throws -> String {
        try app.press("E")
        _ = try app.waitFor("Export to: ")
        try app.press("C-u")
        try app.type(path)
        try app.press("Enter")
        return try app.waitFor(answer)
    }
}
