/// One character cell of a `Screen`.
///
/// A wide glyph (CJK, emoji) occupies its own cell and the one to its right; that
/// second cell is a *continuation* with an empty glyph, which a backend skips.
public struct Cell: Sendable, Hashable {
    /// What the cell shows: one grapheme cluster, already safe for a terminal.
    public var glyph: String
    public var style: Style

    public init(glyph: String = " ", style: Style = .plain) {
        self.glyph = glyph
        self.style = style
    }

    /// A blank cell.
    public static let blank = Cell()

    /// The right half of a wide glyph.
    public static func continuation(_ style: Style) -> Cell { Cell(glyph: "", style: style) }

    /// Whether this is the right half of a wide glyph.
    public var isContinuation: Bool { glyph.isEmpty }
}
