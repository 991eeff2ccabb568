/// A rectangle of cells on a `Screen`, in columns and rows from the top left.
public struct Rect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(width, 0)
        self.height = max(height, 0)
    }

    /// Whether it has no cells.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The row `offset` from the top, one row high (empty past the bottom).
    public func row(_ offset: Int) -> Rect {
        guard offset >= 0, offset < height else { return Rect(x: x, y: y + offset, width: 0, height: 0) }
        return Rect(x: x, y: y + offset, width: width, height: 1)
    }

    /// The rectangle without `amount` columns on each side.
    public func insetBy(columns amount: Int) -> Rect {
        Rect(x: x + amount, y: y, width: width - 2 * amount, height: height)
    }
}
