import Vocabulary

/// A grid of cells that views draw into, ratatui-style: rendering is pure, and a
/// terminal backend compares two Screens and writes only the cells that changed.
///
/// Safe at any size, 0×0 included: writes outside the grid are dropped, text is
/// clipped by display width, and a wide glyph that would straddle the right edge
/// becomes a blank.
public struct Screen: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The whole screen as a rectangle.
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at column `x`, row `y` (a blank outside the grid).
    public subscript(x: Int, y: Int) -> Cell {
        contains(x: x, y: y) ? cells[y * width + x] : .blank
    }

    /// Sets one cell, keeping wide glyphs whole: overwriting either half of a wide
    /// glyph blanks the other half.
    public mutating func set(x: Int, y: Int, _ cell: Cell) {
        guard contains(x: x, y: y) else { return }
        let index = y * width + x
        if cells[index].isContinuation, x > 0, !cell.isContinuation {
            cells[index - 1] = Cell(glyph: " ", style: cells[index - 1].style)
        }
        if x + 1 < width, cells[index + 1].isContinuation, !cells[index].isContinuation {
            cells[index + 1] = Cell(glyph: " ", style: cells[index + 1].style)
        }
        cells[index] = cell
    }

    /// Writes `text` from column `x` on row `y`, clipped to `maxWidth` columns and to
    /// the screen. The text is sanitised first (see `TerminalText.safe`).
    ///
    /// - Returns: the columns used.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        let limit = min(maxWidth ?? Int.max, max(width - x, 0))
        guard y >= 0, y < height, limit > 0 else { return 0 }
        var column = 0
        if text.unicodeScalars.allSatisfy(DisplayWidth.isPlain) {
            // One column and one cluster per scalar, nothing to make safe (`DisplayWidth.isPlain`).
            for scalar in text.unicodeScalars {
                guard column < limit else { break }
                if x + column >= 0 { set(x: x + column, y: y, Cell(glyph: String(scalar), style: style)) }
                column += 1
            }
            return column
        }
        for character in TerminalText.safe(text) {
            let columns = DisplayWidth.of(character)
            if columns == 0 { continue }
            if column + columns > limit {
                if columns == 2, column < limit { set(x: x + column, y: y, Cell(glyph: " ", style: style)) }
                break
            }
            if x + column >= 0 {
                set(x: x + column, y: y, Cell(glyph: String(character), style: style))
                if columns == 2 { set(x: x + column + 1, y: y, .continuation(style)) }
            }
            column += columns
        }
        return min(column, limit)
    }

    /// Fills `rect` (clipped to the screen) with `cell`.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        guard !rect.isEmpty else { return }
        for y in max(rect.y, 0)..<min(rect.y + rect.height, height) {
            for x in max(rect.x, 0)..<min(rect.x + rect.width, width) {
                set(x: x, y: y, cell)
            }
        }
    }

    /// Sets the style of every cell in `rect`, keeping the glyphs.
    public mutating func restyle(_ rect: Rect, _ style: Style) {
        guard !rect.isEmpty else { return }
        for y in max(rect.y, 0)..<min(rect.y + rect.height, height) {
            for x in max(rect.x, 0)..<min(rect.x + rect.width, width) {
                cells[y * width + x].style = style
            }
        }
    }

    /// The text of each row (continuation cells skipped), for tests and snapshots.
    public func lines() -> [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width where !cells[y * width + x].isContinuation {
                line += cells[y * width + x].glyph
            }
            return line
        }
    }

    private func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }
}
