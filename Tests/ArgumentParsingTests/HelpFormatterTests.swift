import Testing

@testable import ArgumentParsing

@Suite("Help text")
struct HelpFormatterTests {
    @Test func sampleCommandHelp() {
        let expected = """
            A sample command.

            Usage: tool sample [OPTIONS] MEMO [PATH]

            Arguments:
              MEMO  The memo.
              PATH  The path.

            Options:
              -r, --rate HZ       The rate. (default: 48000)
                  --threshold DB  The threshold.
                  --title TEXT    The title.
              -j, --json          Print JSON.
              -h, --help          Show this help.

            """
        #expect(HelpFormatter.help(for: Sample.specification, commandPath: "tool sample") == expected)
    }

    @Test func wrapsAtWordBoundaries() {
        #expect(TextWrapping.wrap("one two three four", width: 9) == ["one two", "three", "four"])
        #expect(TextWrapping.wrap("a\n\nb", width: 9) == ["a", "", "b"])
        #expect(TextWrapping.wrap("unbreakableword x", width: 5) == ["unbreakableword", "x"])
    }

    @Test func longLabelsPutTheirTextOnTheNextLine() {
        let lines = TextWrapping.columns(
            [(label: "short", text: "Fits."), (label: String(repeating: "l", count: 30), text: "Below.")],
            maximumLabelWidth: 10)
        #expect(lines == ["  short       Fits.", "  " + String(repeating: "l", count: 30), "              Below."])
    }
}
