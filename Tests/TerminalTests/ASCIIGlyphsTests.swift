import Testing

@testable import Terminal

/// Issue 15 item 14: under `LANG=C` the app draws ASCII only.
@Suite struct ASCIIGlyphsTests {
    @Test func everyGlyphBecomesASCIIOfTheSameWidth() {
        let glyphs = ["a", " ", "█", "▒", "░", "─", "▶", "“", "…", "⏎", "␛", "会", "🎙️", "é", "\u{202E}"]
        for glyph in glyphs {
            let ascii = ASCIIGlyphs.fallback(for: glyph)
            let isASCII = ascii.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(isASCII, "\(glyph) → \(ascii)")
        }
        #expect(ASCIIGlyphs.fallback(for: "a") == "a")
        #expect(ASCIIGlyphs.fallback(for: "█") == "#")
        #expect(ASCIIGlyphs.fallback(for: "会") == "??", "a wide glyph keeps its two columns")
        #expect(ASCIIGlyphs.fallback(for: "é") == "?")
        #expect(ASCIIGlyphs.table.values.allSatisfy { $0.count == 1 }, "each symbol stand-in is one column, as the symbol")
    }
}
