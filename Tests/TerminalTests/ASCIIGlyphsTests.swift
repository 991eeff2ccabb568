import Testing

@testable import Terminal

/// Under `LANG=C` the app draws ASCII only.
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

/// Under `LANG=C` the waveform band is drawn in ASCII, its heights still in order.
@Suite struct ASCIIWaveformTests {
    @Test func theWaveformsBlocksBecomeLevelsOfASCII() {
        let levels = "_.-=#"
        let blocks = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let ascii = blocks.map { ASCIIGlyphs.fallback(for: $0) }
        #expect(!ascii.contains("?"), "\(ascii)")
        let heights = ascii.map { levels.firstIndex(of: Character($0)).map { levels.distance(from: levels.startIndex, to: $0) } ?? -1 }
        #expect(!heights.contains(-1), "\(ascii)")
        #expect(heights == heights.sorted(), "a higher block is never a lower glyph: \(ascii)")
        #expect(Set(heights).count == levels.count, "every level is used: \(ascii)")
    }
}
