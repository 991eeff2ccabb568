import Testing
import Vocabulary

/// The one rule for putting someone else's text on a terminal.
@Suite struct TerminalTextTests {
    @Test func c0ControlsAndDeleteBecomeTheirPictures() {
        #expect(TerminalText.safe("a\u{1B}[31mred\u{7}") == "a␛[31mred␇")
        #expect(TerminalText.safe("tab\there\nline\r") == "tab␉here␊line␍")
        #expect(TerminalText.safe("\u{0}x\u{7F}") == "␀x␡")
    }

    @Test func c1ControlsAreVisibleNotObeyedNorLost() {
        // U+009B is a one-byte CSI on terminals that take C1: "\u{9B}2J" would clear the screen.
        #expect(TerminalText.safe("\u{9B}2J") == "\\u{9B}2J")
        #expect(TerminalText.safe("\u{85}\u{9D}0;t\u{9C}") == "\\u{85}\\u{9D}0;t\\u{9C}")
        #expect(TerminalText.safe("\u{80}") != TerminalText.safe("\u{81}"), "two controls stay told apart")
    }

    @Test(arguments: [0x061C, 0x180E, 0x200B, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2060, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0xFEFF])
    func bidirectionalMarksAndSeparatorsAreShownAsEscapes(_ value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let shown = TerminalText.safe("evil" + String(Character(scalar)) + "txt")
        #expect(shown == "evil\\u{" + String(value, radix: 16, uppercase: true) + "}txt")
        #expect(!TerminalText.isSafe(scalar))
    }

    @Test func aMessageKeepsItsLineBreaksAndNothingElse() {
        #expect(TerminalText.safeLines("cannot open /tmp/a\u{1B}]0;x\u{7}.wav\nsecond line\t") == "cannot open /tmp/a␛]0;x␇.wav\nsecond line␉")
        #expect(TerminalText.safeLines("plain\nlines") == "plain\nlines")
    }

    @Test func printableTextOfEveryScriptIsKept() {
        for text in ["Réunion 14:00", "会議メモ", "مرحبا", "👩‍👩‍👧 Family", "e\u{301}", "zero width joiner: 👨\u{200D}💻, non-joiner: \u{200C}", "tab-free"] {
            #expect(TerminalText.safe(text) == text)
        }
    }

    @Test func theResultIsSafeWhateverTheInput() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<20 {
                let value = UInt32.random(in: 0...0x2100, using: &generator)
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
            }
            let shown = TerminalText.safe(String(scalars))
            #expect(shown.unicodeScalars.allSatisfy(TerminalText.isSafe), "\(shown.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// The one trim for typed text (titles, the export path, a stream URL): Unicode white space
    /// at either end goes, inner white space and everything else stays.
    @Test func trimmingRemovesUnicodeWhiteSpaceAtTheEndsOnly() {
        #expect(" \u{3000}\tStand up  notes\n\u{2029}".trimmingWhiteSpace == "Stand up  notes")
        #expect(" \u{A0}\n ".trimmingWhiteSpace == "")
        #expect("\u{200B}x\u{200B}".trimmingWhiteSpace == "\u{200B}x\u{200B}", "a zero-width space is not white space")
    }
}
