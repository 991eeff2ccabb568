/// A key press, decoded by the terminal backend.
public enum Key: Sendable, Hashable {
    /// A printable character (Unicode text, space included).
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab
    /// Ctrl-U: clear the prompt up to the cursor.
    case clearToStart
    /// Ctrl and a letter the app gives a meaning: Ctrl-L (`control("l")`, the export prompt's loudness).
    case control(Character)
    /// Anything else (function keys, unknown sequences): ignored.
    case other
}
