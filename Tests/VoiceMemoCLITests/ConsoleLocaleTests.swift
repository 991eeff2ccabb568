import Synchronization
import Testing
import VoiceMemoCLI

/// Under a locale that is not UTF-8 the command line writes its own symbols
/// in ASCII; JSON and the user's titles and paths pass through unchanged.
@Suite struct ConsoleLocaleTests {
    private final class Lines: Sendable {
        let output = Mutex("")
        let error = Mutex("")
    }

    @Test func anASCIIConsoleWritesMessagesInASCIIAndJSONAsIs() {
        let lines = Lines()
        let console = Console(
            writeOutput: { text in lines.output.withLock { $0 += text } },
            writeError: { text in lines.error.withLock { $0 += text } }, asciiOnly: true)
        console.printErrorMessage("no file or memo named “nosuch” — try ‘list’…")
        console.printLine("1.5× → “Café”")
        console.printJSON(#"{"title": "Café “quoted”"}"#)
        #expect(lines.error.withLock { $0 } == "voicememo: no file or memo named \"nosuch\" - try 'list'.\n")
        #expect(lines.output.withLock { $0 } == "1.5x > \"Café\"\n" + #"{"title": "Café “quoted”"}"# + "\n")
    }

    @Test func aUTF8ConsoleWritesEverythingAsIs() {
        let lines = Lines()
        let console = Console(
            writeOutput: { text in lines.output.withLock { $0 += text } },
            writeError: { text in lines.error.withLock { $0 += text } })
        console.printErrorMessage("“nosuch” — ×")
        #expect(lines.error.withLock { $0 } == "voicememo: “nosuch” — ×\n")
    }
}
