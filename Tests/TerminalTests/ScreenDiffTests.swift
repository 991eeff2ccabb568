import Interface
import Testing

@testable import Terminal

@Suite struct ScreenDiffTests {
    @Test func firstDrawWritesEverythingAfterThatOnlyChanges() {
        var screen = Screen(width: 10, height: 3)
        screen.put("hello", x: 0, y: 0)
        #expect(ScreenDiff.changes(from: nil, to: screen).count == 30)
        var next = screen
        next.put("J", x: 0, y: 0)
        next.put("!", x: 9, y: 2)
        let changes = ScreenDiff.changes(from: screen, to: next)
        #expect(changes.map { [$0.x, $0.y] } == [[0, 0], [9, 2]])
        #expect(ScreenDiff.changes(from: next, to: next).isEmpty)
    }

    @Test func aStyleChangeIsAChange() {
        var screen = Screen(width: 4, height: 1)
        screen.put("ab", x: 0, y: 0)
        var next = screen
        next.restyle(Rect(x: 1, y: 0, width: 1, height: 1), .reverse)
        #expect(ScreenDiff.changes(from: screen, to: next).map(\.x) == [1])
    }

    @Test func wideGlyphsAreWrittenByTheirLeadingCell() {
        let screen = Screen(width: 6, height: 1)
        var next = screen
        next.put("a漢", x: 0, y: 0)
        let changes = ScreenDiff.changes(from: screen, to: next)
        #expect(changes.map(\.x) == [0, 1])
        #expect(changes[1].cell.glyph == "漢")
        var narrower = next
        narrower.put("xy", x: 1, y: 0)
        #expect(ScreenDiff.changes(from: next, to: narrower).map(\.x) == [1, 2])
    }

    @Test func aResizeRedrawsEverything() {
        let small = Screen(width: 2, height: 2)
        #expect(ScreenDiff.changes(from: small, to: Screen(width: 3, height: 2)).count == 6)
        #expect(ScreenDiff.changes(from: small, to: Screen(width: 0, height: 0)).isEmpty)
    }
}
