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

    /// The plain scalars' shortcut agrees with the grapheme-by-grapheme way for every one of them:
    /// each is safe, one column wide and a cluster of its own next to any other plain scalar.
    @Test func plainScalarsAreOneColumnAndOneClusterEach() throws {
        let plain = (0x20...0x25FF).compactMap(Unicode.Scalar.init).filter(DisplayWidth.isPlain)
        #expect(plain.count == 95 + 0x260 + 0x18 + 0x170 + 0xFD)
        for scalar in plain {
            #expect(TerminalText.isSafe(scalar), "U+\(String(scalar.value, radix: 16))")
            #expect(DisplayWidth.of(Character(scalar)) == 1, "U+\(String(scalar.value, radix: 16))")
        }
        // Every plain scalar next to every other would be 10⁶ pairs: each beside a sample of them,
        // the first, middle and last of each range among it.
        let neighbours = plain.enumerated().filter { $0.offset % 37 == 0 }.map(\.element)
        for scalar in plain {
            for neighbour in neighbours {
                var text = String.UnicodeScalarView()
                text.append(contentsOf: [neighbour, scalar, neighbour])
                let string = String(text)
                #expect(string.count == 3, "U+\(String(neighbour.value, radix: 16)) U+\(String(scalar.value, radix: 16))")
            }
        }
        // Drawn alike: a plain line, and the same line after a lone combining mark, a cluster of
        // no width that sends it the slow way.
        let line = "L ████▒▒░░ rms −15.0 ━━ ← ≤ “a” · é"
        var fast = Screen(width: 40, height: 1)
        #expect(fast.put(line, x: 1, y: 0) == DisplayWidth.of(line))
        var slow = Screen(width: 40, height: 1)
        slow.put("\u{301}" + line, x: 1, y: 0)
        #expect(fast.lines() == slow.lines())
        #expect(fast.lines() == [" " + line + String(repeating: " ", count: 39 - line.count)])
        #expect(DisplayWidth.of(line) == line.count)
        #expect(DisplayWidth.of(line + "漢") == line.count + 2)
    }
}
