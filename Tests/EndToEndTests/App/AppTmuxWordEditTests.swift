import Foundation
import Testing

/// Editing by words in the app at 80×24: in `T`, three words selected (`w`, `v`, `w` `w`) and
/// cut (`x`, `y`); the new memo is the original without them, to the frame, cut in the pauses
/// around them; its transcript no longer holds them; `u` brings the original back.
@Suite struct AppTmuxWordEditTests {
    struct Word: Decodable {
        let word: String
        let start: Double
        let end: Double
    }

    struct Words: Decodable {
        let words: [Word]
    }

    /// The memo's audio as 16-bit mono samples (sox).
    static func samples(_ path: String, in sandbox: VoiceMemoSandbox) throws -> [Int16] {
        let raw = sandbox.file("samples-\(UUID().uuidString).raw")
        let made = try sandbox.shell("sox \"\(path)\" -t raw -e signed -b 16 \"\(raw)\"")
        #expect(made.status == 0, "\(made)")
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    @Test func threeWordsSelectedAndCutLeaveTheRestToTheFrame() throws {
        let sandbox = try VoiceMemoSandbox()
        // "go forward ten meters" twice, each with 1 s of silence around it, 16 kHz mono WAV.
        let made = try sandbox.shell(
            "sox -r 16000 -e signed -b 16 -c 1 \(TranscriptionAppTests.goForward) once.wav pad 1 1 && "
                + "sox once.wav once.wav \"$VOICEMEMO_HOME/forward.wav\"")
        #expect(made.status == 0, "\(made)")
        let heard = try sandbox.run("transcribe", "forward", "--json", timeout: .seconds(120))
        #expect(heard.status == 0, "\(heard)")
        let words = try JSONDecoder().decode(Words.self, from: Data(heard.standardOutput.utf8)).words
        try #require(words.map(\.word) == ["go", "forward", "ten", "meters", "go", "forward", "ten", "meters"], "\(heard.standardOutput)")
        let original = try #require(try sandbox.listedMemos().first)
        let originalPath = try #require(original["path"] as? String)
        let source = try Self.samples(originalPath, in: sandbox)

        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40")
        _ = try app.waitForStart()
        try app.press("T")
        let view = try app.waitFor("go forward ten meters")
        #expect(view.contains("w b word"), "the word cursor's keys are on the view's footer: \(view)")
        try app.press("w")
        _ = try app.waitFor("Word cursor on “go”: w b move it, v selects from it")
        try app.press("w")  // "forward"
        try app.press("v")
        try app.press("w")
        let selected = try app.waitFor("2 words selected")
        #expect(selected.contains("x cut") || selected.contains("x cuts"), "the keys are on the screen: \(selected)")
        try app.press("w")
        _ = try app.waitFor("3 words selected")
        try app.press("x")
        _ = try app.waitFor("Cut 3 words (“forward ten meters”) out of “forward”?")
        try app.press("y")
        let done = try app.waitFor("Cut “forward ten meters” out of “forward”", timeout: 30)
        #expect(done.contains("u brings it back"), "\(done)")

        let made2 = try sandbox.listedMemos()
        let cut = try #require(made2.first)
        #expect(made2.count == 1 && (cut["id"] as? Int) != (original["id"] as? Int), "\(made2)")
        let cutSamples = try Self.samples(try #require(cut["path"] as? String), in: sandbox)
        // The new memo is the original's start and end, the middle cut out in the two pauses.
        let prefix = zip(source, cutSamples).prefix { $0 == $1 }.count
        let suffix = zip(source.reversed(), cutSamples.reversed()).prefix { $0 == $1 }.count
        #expect(prefix + suffix >= cutSamples.count, "nothing but the original's own frames")
        let cutStart = Double(prefix) / 16_000
        let cutEnd = Double(source.count - (cutSamples.count - prefix)) / 16_000
        #expect(cutStart >= words[0].end - 0.011 && cutStart <= words[1].start + 0.011, "in the pause before “forward”: \(cutStart)")
        #expect(cutEnd >= words[3].end - 0.011 && cutEnd <= words[4].start + 0.011, "in the pause after “meters”: \(cutEnd)")
        let kept = try sandbox.run("transcribe", String(try #require(cut["id"] as? Int)), "--json")
        #expect(
            try JSONDecoder().decode(Words.self, from: Data(kept.standardOutput.utf8)).words.map(\.word)
                == ["go", "go", "forward", "ten", "meters"], "\(kept)")

        try app.press("u")
        _ = try app.waitFor("Bringing back “forward”")
        let back = try app.waitUntil(timeout: 10) { _ in ((try? sandbox.listedMemos()) ?? []).map { $0["id"] as? Int } == [original["id"] as? Int] }
        #expect(back.contains("forward"))
        try TranscriptionAppTests.quit(app)
    }
}
