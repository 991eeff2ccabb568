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
        let full = old.map { $0.width != new.width || $0.height != new.height } ?? true
        var changes: [Change] = []
        for y in 0..<new.height {
            var x = 0
            while x < new.width {
                let cell = new[x, y]
                let changed = full || cell != old?[x, y] || (x + 1 < new.width && new[x + 1, y] != old?[x + 1, y] && new[x + 1, y].isContinuation)
                if changed && !cell.isContinuation {
                    changes.append(Change(x: x, y: y, cell: cell))
                } else if changed, x > 0, changes.last.map({ $0.x != x - 1 || $0.y != y }) ?? true {
                    changes.append(Change(x: x - 1, y: y, cell: new[x - 1, y]))
                }
                x += 1
            }
        }
        return changes
    }
}
