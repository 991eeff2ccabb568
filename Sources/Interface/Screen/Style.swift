/// One of the eight colours every colour terminal has.
public enum Color: Int, Sendable, Hashable, CaseIterable {
    case black, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell is drawn: colours (`nil` is the terminal's default) and attributes.
///
/// Colour is a hint: a terminal without colour (or `NO_COLOR`) draws only the
/// attributes, so views never rely on colour alone to say something.
public struct Style: Sendable, Hashable {
    /// Text attributes a terminal can show without colour.
    public struct Attributes: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let bold = Attributes(rawValue: 1 << 0)
        public static let dim = Attributes(rawValue: 1 << 1)
        public static let reverse = Attributes(rawValue: 1 << 2)
        public static let underline = Attributes(rawValue: 1 << 3)
    }

    public var foreground: Color?
    public var background: Color?
    public var attributes: Attributes

    public init(foreground: Color? = nil, background: Color? = nil, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's default look.
    public static let plain = Style()
    public static let bold = Style(attributes: .bold)
    public static let dim = Style(attributes: .dim)
    public static let reverse = Style(attributes: .reverse)
}
