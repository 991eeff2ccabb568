import TestSupport
import Foundation
import Testing

/// A memo still at its default title is titled from its first words once transcribed (by
/// `record`, `transcribe` and the app's background job), with the real recogniser on
/// goforward.raw ("go forward ten meters"); a title a person gave stays, `auto_title = off`
/// keeps the default, and in the app `u` gives the old title back.
@Suite(.serialized) struct TitleFromWordsE2ETests {
    static let heard = "Go forward ten meters"

    /// goforward.raw as a 48 kHz stereo WAV to record from.
    static func clip(in sandbox: VoiceMemoSandbox) throws -> String {
        let clip = sandbox.file("forward.wav")
        let made = try sandbox.shell("sox -r 16000 -e signed -b 16 -c 1 \(TranscriptionAppTests.goForward) -r 48000 -c 2 \(clip)")
        #expect(made.status == 0, "\(made)")
        return clip
    }

    static func title(of id: String, in sandbox: VoiceMemoSandbox) throws -> String? {
        try sandbox.listedMemos().first { ($0["id"] as? Int).map(String.init) == id }?["title"] as? String
    }

    static func record(_ clip: String, _ sandbox: VoiceMemoSandbox, _ extra: String...) throws -> (id: String, standardError: String) {
        let recorded = try sandbox.run(arguments: ["record", "--source", "file:" + clip] + extra, timeout: .seconds(120))
        #expect(recorded.status == 0, "\(recorded)")
        return (recorded.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines), recorded.standardError)
    }

    @Test func recordAndTranscribeTitleADefaultTitledMemoAndKeepAGivenOne() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.useBuiltInConfig()  // transcribe = auto and auto_title = on are the defaults
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let clip = try Self.clip(in: sandbox)

        let plain = try Self.record(clip, sandbox)
        #expect(try Self.title(of: plain.id, in: sandbox) == Self.heard)
        #expect(plain.standardError.contains("memo \(plain.id) is titled “\(Self.heard)” from its words (it was “Memo 20"), "\(plain.standardError)")

        let named = try Self.record(clip, sandbox, "--title", "Forward")
        #expect(try Self.title(of: named.id, in: sandbox) == "Forward", "a title given is kept")
        #expect(!named.standardError.contains("is titled"), "\(named.standardError)")

        try sandbox.writeConfig("transcribe = auto\nauto_title = off\n")
        let off = try Self.record(clip, sandbox)
        #expect(try Self.title(of: off.id, in: sandbox)?.hasPrefix("Memo 20") == true, "auto_title = off keeps the default")
        #expect(off.standardError.contains("4 words transcribed"), "\(off.standardError)")

        // Not transcribed when recorded: `voicememo transcribe` titles it.
        try sandbox.writeConfig("transcribe = manual\n")
        let later = try Self.record(clip, sandbox)
        let defaultTitle = try #require(try Self.title(of: later.id, in: sandbox))
        #expect(defaultTitle.hasPrefix("Memo 20"))
        let transcribed = try sandbox.run("transcribe", later.id, timeout: .seconds(120))
        #expect(transcribed.status == 0, "\(transcribed)")
        #expect(transcribed.standardOutput.contains("go forward ten meters"), "the words on standard output as before: \(transcribed)")
        #expect(transcribed.standardError.contains("is titled “\(Self.heard)”"), "\(transcribed)")
        #expect(try Self.title(of: later.id, in: sandbox) == Self.heard)
        // Transcribed again, it is no longer at its default title: it stays as it is.
        #expect(try sandbox.run("rename", later.id, "Directions").status == 0)
        let again = try sandbox.run("transcribe", later.id, "--again", timeout: .seconds(120))
        #expect(again.status == 0 && !again.standardError.contains("is titled"), "\(again)")
        #expect(try Self.title(of: later.id, in: sandbox) == "Directions")
    }

    @Test func theAppTitlesAMemoOnceTranscribedAndUGivesTheOldTitleBack() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let clip = try Self.clip(in: sandbox)
        let memo = try Self.record(clip, sandbox)  // transcribe = manual: left untranscribed
        let defaultTitle = try #require(try Self.title(of: memo.id, in: sandbox))
        #expect(defaultTitle.hasPrefix("Memo 20"))

        try sandbox.writeConfig("transcribe = auto\n")
        let log = sandbox.file("events.log")
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source tone:440@-40", environment: "VOICEMEMO_EVENT_LOG='\(log)'")
        #expect(TranscriptionAppTests.waitForEvent("titled \(memo.id)", in: log), "\(TranscriptionAppTests.events(log))")
        var screen = try app.waitFor(Self.heard)
        #expect(screen.contains(Self.heard), "the table shows the new title: \(screen)")
        #expect(try Self.title(of: memo.id, in: sandbox) == Self.heard, "in the library")

        try app.press("u")
        screen = try app.waitFor("Title back to “\(defaultTitle)”")
        #expect(screen.contains("Title back to"), "\(screen)")
        // The undo reaches the library on the effect runner a moment later.
        let deadline = Date().addingTimeInterval(10)
        var title = try Self.title(of: memo.id, in: sandbox)
        while title != defaultTitle, Date() < deadline {
            usleep(100_000)
            title = try Self.title(of: memo.id, in: sandbox)
        }
        #expect(title == defaultTitle, "u gave the memo its old title back")
        try TranscriptionAppTests.quit(app)
    }
}
