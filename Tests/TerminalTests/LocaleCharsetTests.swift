import Testing

@testable import Terminal

/// One decision (the locale's codeset) for the screen and the command line.
@Suite struct LocaleCharsetTests {
    @Test(arguments: [("UTF-8", true), ("utf8", true), ("UTF8", true), ("ANSI_X3.4-1968", false), ("ISO-8859-1", false), ("", false)])
    func onlyAUTF8CodesetIsUTF8(codeset: String, isUTF8: Bool) {
        #expect(LocaleCharset.codesetIsUTF8(codeset) == isUTF8, "\(codeset)")
    }

    @Test func theSymbolsBecomeASCIIAndTheUsersTextStays() {
        #expect(LocaleCharset.asciiSymbols("Saved “Memo” (00:00:02) — 1.5× → ok…") == "Saved \"Memo\" (00:00:02) - 1.5x > ok.")
        #expect(LocaleCharset.asciiSymbols("L ███▒▒░░ ──") == "L ###==-- --")
        #expect(LocaleCharset.asciiSymbols("-60  -30━━━-20━━━━━-10  ━━ good level") == "-60  -30===-20=====-10  == good level", "the good level band never reads as minus signs")
        #expect(LocaleCharset.asciiSymbols("/tmp/Café 会議.wav") == "/tmp/Café 会議.wav", "a path comes back as given")
        #expect(LocaleCharset.asciiSymbols("plain") == "plain")
        #expect(LocaleCharset.asciiSymbols("a␛]0;x␇ b␊ c␉") == "a^]0;x^G b^J c^I", "a control's picture in caret notation (␛ and ␡ as the key glyphs)")
        for (symbol, ascii) in ASCIIGlyphs.table {
            #expect(LocaleCharset.asciiSymbols(symbol) == ascii)
            let isASCII = ascii.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(isASCII, "\(symbol) → \(ascii)")
        }
    }
}
