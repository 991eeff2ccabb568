import Foundation
import Testing

/// A file's name reaches a terminal through the same terminal-safe text as a title: an OSC
/// that would set the window title, a colour change and a bidi override are shown, not obeyed.
@Suite struct PathsOnATerminalTests {
    static let hostileName = "evil\u{1B}]0;pwned\u{7}\u{1B}[32mgreen\u{202E}\u{200B}x"

    @Test func aHostileFileNameIsShownNotObeyed() throws {
        let sandbox = try VoiceMemoSandbox()
        var environment = sandbox.environment
        environment["VOICEMEMO_UNPACED"] = "1"
        let made = try ProcessRunner.run(
            try VoiceMemoBinary.url(),
            arguments: ["record", "--source", "tone:440@-6", "--duration", "1", "--output", sandbox.file("made.wav")],
            environment: environment, timeout: .seconds(30))
        try #require(made.status == 0, "\(made)")
        let library = sandbox.libraryDirectory.path
        try FileManager.default.moveItem(atPath: sandbox.file("made.wav"), toPath: library + "/" + Self.hostileName + ".wav")
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: library + "/bad" + Self.hostileName + ".wav"))
        let listed = try sandbox.run("list", "--json")
        try #require(listed.status == 0, "\(listed)")

        // On a terminal (script(1) gives the command one), standard output and error alike.
        let outcome = try sandbox.shell("""
            script -qec 'voicememo analyze title:evil; voicememo play title:evil --device null --from 0.5; voicememo export title:bad out.wav' /dev/null
            """)
        let bytes = Array((outcome.standardOutput + outcome.standardError).utf8)
        #expect(outcome.standardOutput.contains("file:"), "\(outcome)")
        #expect(outcome.standardOutput.contains("evil␛]0;pwned␇␛[32mgreen\\u{202E}\\u{200B}x"), "\(outcome)")
        #expect(!bytes.contains(0x1B) || !outcome.standardOutput.contains("\u{1B}]0;"), "no raw OSC: \(outcome)")
        #expect(!bytes.contains(0x07), "no raw BEL: \(outcome)")
        #expect(!outcome.standardOutput.contains("\u{202E}") && !outcome.standardOutput.contains("\u{200B}"), "\(outcome)")

        // Through a pipe a script gets the path as it is.
        let piped = try sandbox.run("analyze", "title:evil")
        #expect(piped.standardOutput.contains(Self.hostileName), "\(piped)")
        // Messages are for people wherever they go.
        let failed = try sandbox.run("export", "title:bad", sandbox.file("out.wav"))
        #expect(failed.status == 1, "\(failed)")
        #expect(!failed.standardError.contains("\u{1B}") && failed.standardError.contains("␛]0;pwned␇"), "\(failed)")
    }

    @Test func underAnASCIILocaleControlsAreInCaretNotation() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "ok")
        #expect(try sandbox.run("rename", "1", "bell\u{7}line").status == 0)
        var environment = sandbox.environment
        environment["LC_ALL"] = "C"
        environment["LANG"] = "C"
        let list = try ProcessRunner.run(try VoiceMemoBinary.url(), arguments: ["list"], environment: environment, timeout: .seconds(30))
        #expect(list.status == 0, "\(list)")
        #expect(list.standardOutput.contains("bell^Gline"), "\(list)")
        #expect(list.standardOutput.utf8.allSatisfy { $0 < 0x80 }, "\(list)")
    }
}
