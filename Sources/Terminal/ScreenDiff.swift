import Interface

/// The cells to write to turn one Screen into another: pure, so the "only what
/// changed" promise is tested without a terminal.
public enum ScreenDiff {
    /// One cell to draw.
    public struct Change: Sendable, Hashable {
        public var x: Int
        public var y: Int
        public var cell: Cell
    }

    /// The changes from `old` to `new`, row by row; everything when `old` is `nil`
    /// or of another size. A changed continuation cell redraws its wide glyph; a
    /// wide glyph replaced by a narrow one also writes what now follows it.
    public static func changes(from old: Screen?, to new: Screen) -> [Change] {
        // Straight on the cell arrays: the screen's subscript copies a cell (and retains its
        // glyph) for every look, five looks a cell, 30 frames a second.
        let width = new.width
        let cells = new.cells
        let oldCells = old.flatMap { $0.width == new.width && $0.height == new.height ? $0.cells : nil }
        var changes: [Change] = []
        for y in 0..<new.height {
            let row = y * width
            for x in 0..<width {
                let index = row + x
                if let oldCells {
                    let changed = cells[index] != oldCells[index]
                        || (x + 1 < width && cells[index + 1].isContinuation && cells[index + 1] != oldCells[index + 1])
                    guard changed else { continue }
                }
                if !cells[index].isContinuation {
                    changes.append(Change(x: x, y: y, cell: cells[index]))
                } else if x > 0, changes.last.map({ $0.x != x - 1 || $0.y != y }) ?? true {
                    changes.append(Change(x: x - 1, y: y, cell: cells[index - 1]))
                }
            }
        }
        return changes
    }
}
