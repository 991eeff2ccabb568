import Foundation
import Testing

/// The app watches its library folder: a file dropped in (a file manager, `cp`) joins the
/// table within seconds, saying where its title came from; a file taken away makes its memo
/// missing.
@Suite struct AppTmuxDroppedFilesTests {
    @Test func aDroppedFileJoinsTheTableAndSaysWhereItsTitleCameFrom() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "Already here")
        var environment = sandbox.environment
        environment["VOICEMEMO_UNPACED"] = "1"
        let outside = sandbox.file("Podcast intro.mp3")
        let made = try ProcessRunner.run(
            try VoiceMemoBinary.url(),
            arguments: ["record", "--source", "tone:440@-6", "--duration", "1", "--format", "mp3", "--title", "Garden idea", "--output", outside],
            environment: environment, timeout: .seconds(30))
        try #require(made.status == 0, "\(made)")

        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-30", width: 120)
        _ = try app.waitFor("Already here")
        try FileManager.default.copyItem(
            atPath: outside, toPath: sandbox.libraryDirectory.appendingPathComponent("Podcast intro.mp3").path)
        var screen = try app.waitFor("Podcast intro.mp3", timeout: 15)
        #expect(screen.contains("as “Garden idea”, the title in its tags"), "\(screen)")
        #expect(screen.contains("Garden idea"), "the table has it: \(screen)")

        try FileManager.default.removeItem(at: sandbox.libraryDirectory.appendingPathComponent("Podcast intro.mp3"))
        screen = try app.waitFor("Garden idea [missing]", timeout: 15)
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }
}
