import Testing

@testable import ArgumentParsing

/// `--exec CMD`'s word list: split like a shell, nothing expanded.
@Suite struct WordsParsingTests {
    static func words(_ text: String) throws(ValueRejection) -> [String] {
        try ValueParser<[String]>.words.parse(text)
    }

    @Test(arguments: [
        ("notify-send 'Too loud'", ["notify-send", "Too loud"]),
        ("  a   b\tc ", ["a", "b", "c"]),
        ("sh -c 'echo $VOICEMEMO_ALERT_LEVEL; rm -rf /'", ["sh", "-c", "echo $VOICEMEMO_ALERT_LEVEL; rm -rf /"]),
        ("say \"it's \\\"loud\\\" \\$HOME \\n\"", ["say", "it's \"loud\" $HOME \\n"]),
        ("a\\ b c''d \"\"", ["a b", "cd", ""]),
        ("$(reboot) `id` *", ["$(reboot)", "`id`", "*"]),
    ])
    func splitsLikeAShellWithoutExpanding(text: String, expected: [String]) throws {
        #expect(try Self.words(text) == expected)
    }

    @Test(arguments: ["'open", "\"open", "trailing\\", "", "   ", "'' x"])
    func refusesWhatNamesNoCommandOrIsUnfinished(text: String) {
        #expect(throws: ValueRejection.self) { try Self.words(text) }
    }
}
