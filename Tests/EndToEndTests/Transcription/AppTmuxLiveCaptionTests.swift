import Foundation
import Testing

/// The app's live captions, through the binary in tmux: read speech from a file source played
/// in real time, `C` then `r`; the draft words appear under the meter while it records, and the
/// saved memo is transcribed whole.
@Suite struct AppTmuxLiveCaptionTests {
    @Test func theDraftShowsTheWordsWhileRecordingAndTheSavedMemoIsTranscribedWhole() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.writeConfig("transcribe = auto\n")
        // The file plays from when the app opens it, before C and r: the sentence three times
        // (25 s) leaves words to caption however long the app takes to start.
        let phrase = sandbox.file("phrase.wav")
        let clip = LiveCaptionTests.clip
        let made = try sandbox.shell("sox \(clip) \(clip) \(clip) -r 48000 -c 2 \(phrase) pad 1 1.5 pad 0 1.5@7.1 pad 0 1.5@15.7")
        #expect(made.status == 0, "\(made)")
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(phrase)")
        var screen = try app.waitForStart("Listening to file:")
        try app.press("C")
        screen = try app.waitFor("Live captions on")
        try app.press("r")
        screen = try app.waitFor("REC")
        screen = try app.waitUntil(timeout: 30) { screen in
            Self.heardWords(screen).intersection(LiveCaptionTests.spokenWords).count >= 3
        }
        let line = try #require(Self.captionLine(screen), "\(screen)")
        #expect(line.hasPrefix(" draft "), "the line says it is a draft: \(screen)")
        #expect(!screen.contains("captions stopped"), "\(screen)")
        // Ten seconds hold most of a sentence, for the whole-file transcript to be compared.
        screen = try app.waitForRecording(atLeast: 10, timeout: 20)
        try app.press("s")
        screen = try app.waitFor("Title: Memo ")
        try app.type("Dashwood")
        try app.press("Enter")
        screen = try app.waitFor("Saved")
        #expect(Self.captionLine(screen) == nil, "not recording: no draft line: \(screen)")
        // The app transcribes the saved file whole, in the background.
        let deadline = Date().addingTimeInterval(60)
        var memo: [String: Any] = [:]
        while Date() < deadline {
            memo = try #require(try sandbox.listedMemos().first)
            if memo["transcript"] as? String == "complete" { break }
            Thread.sleep(forTimeInterval: 0.5)
        }
        #expect(memo["transcript"] as? String == "complete", "\(memo)")
        try app.press("q")
        _ = try app.waitFor("END", timeout: 30)
        let text = sandbox.file("words.txt")
        let exported = try sandbox.run("export", "Dashwood", text)
        #expect(exported.status == 0, "\(exported)")
        let words = Set(((try? String(contentsOfFile: text, encoding: .utf8)) ?? "").lowercased().split { !$0.isLetter }.map(String.init))
        #expect(words.intersection(LiveCaptionTests.spokenWords).count >= 3, "transcribed whole from the file: \(words.sorted())")
    }

    @Test func withoutAModelTheLineSaysWhyAndTheRecordingGoesOn() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.writeConfig("transcribe = manual\ntranscribe.model = \(sandbox.file("no-model"))\ncaptions = on\n")
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12")
        _ = try app.waitForStart("Listening to tone:440@-12")
        try app.press("r")
        var screen = try app.waitFor("captions stopped: unavailable")
        #expect(screen.contains("Live captions stopped: unavailable"), "said on the status line too: \(screen)")
        screen = try app.waitForRecording(atLeast: 2)
        try app.press("s")
        screen = try app.waitFor("Title: Memo ")
        try app.press("Enter")
        screen = try app.waitFor("Saved")
        try app.press("q")
        _ = try app.waitFor("END", timeout: 30)
        let memo = try #require(try sandbox.listedMemos().first)
        #expect((memo["duration"] as? Double ?? 0) >= 2, "\(memo)")
    }

    /// The row starting with " draft " or " captions stopped", when there is one.
    static func captionLine(_ screen: String) -> String? {
        screen.split(separator: "\n").map(String.init).first { $0.hasPrefix(" draft ") || $0.hasPrefix(" captions stopped") }
    }

    static func heardWords(_ screen: String) -> Set<String> {
        Set((captionLine(screen) ?? "").split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "…")) })
    }
}
