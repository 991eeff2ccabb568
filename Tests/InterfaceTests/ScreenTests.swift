import Vocabulary
import Testing

@testable import Interface

@Suite struct ScreenTests {
    @Test func zeroAndOneCellScreensTakeAnything() {
        var empty = Screen(width: 0, height: 0)
        empty.put("hello", x: 0, y: 0)
        empty.fill(Rect(x: -3, y: -3, width: 10, height: 10), with: Cell(glyph: "x"))
        #expect(empty.lines() == [])
        var one = Screen(width: 1, height: 1)
        one.put("漢字", x: 0, y: 0)
        #expect(one.lines() == [" "], "a wide glyph that does not fit becomes a blank")
        one.put("ab", x: 0, y: 0)
        #expect(one.lines() == ["a"])
    }

    @Test func wideGlyphsTakeTwoColumnsAndCombiningMarksNone() {
        #expect(DisplayWidth.of("漢字") == 4)
        #expect(DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("ｈｉ") == 4, "fullwidth forms")
        var screen = Screen(width: 6, height: 1)
        let used = screen.put("a漢b", x: 0, y: 0)
        #expect(used == 4)
        #expect(screen.lines() == ["a漢b  "])
        #expect(screen[2, 0].isContinuation)
    }

    @Test func overwritingHalfAWideGlyphBlanksTheOtherHalf() {
        var screen = Screen(width: 4, height: 1)
        screen.put("漢字", x: 0, y: 0)
        screen.put("x", x: 1, y: 0)
        #expect(screen.lines() == [" x字"])
        screen.put("y", x: 2, y: 0)
        #expect(screen.lines() == [" xy "])
    }

    @Test func controlCharactersAndEscapesBecomeVisible() {
        #expect(TerminalText.safe("a\u{1B}[31mred\u{7}") == "a␛[31mred␇")
        #expect(TerminalText.safe("tab\there\nline") == "tab␉here␊line")
        #expect(TerminalText.safe("\u{9B}2J") == "\\u{9B}2J")
        #expect(TerminalText.safe("evil\u{202E}txt") == "evil\\u{202E}txt")
        var screen = Screen(width: 12, height: 1)
        screen.put("\u{1B}]0;x\u{7}", x: 0, y: 0)
        #expect(screen.lines() == ["␛]0;x␇      "])
    }

    @Test func truncationIsByDisplayWidth() {
        #expect(TextFitting.truncated("漢字漢字", toWidth: 5) == "漢字…")
        #expect(TextFitting.padded("漢字", toWidth: 6) == "漢字  ")
        #expect(TextFitting.truncated("abc", toWidth: 0) == "")
        #expect(TextFitting.rightAligned("ab", toWidth: 4) == "  ab")
    }
}
