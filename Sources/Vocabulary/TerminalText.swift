/// Makes text from anyone (titles, file names, values typed on the command line, transcript
/// words) safe to put on a terminal: nothing in it can move the cursor, change colours, ring
/// the bell, set the window title or reorder what follows. One rule for the screen, `list`,
/// messages and usage errors, so the same title looks the same everywhere.
///
/// - C0 controls become their Control Pictures (ESC → `␛`, NUL → `␀`, so an escape sequence
///   shows as `␛[31m`), DEL becomes `␡`: one cell each, readable.
/// - C1 controls (U+0080…U+009F, which some terminals obey as CSI, OSC…), the bidirectional
///   marks, embeddings, overrides and isolates (U+061C, U+200E/F, U+202A…U+202E,
///   U+2066…U+2069), the line and paragraph separators (U+2028/9) and the invisible
///   characters that would hide a difference between two names (U+200B zero width space,
///   U+2060…U+2064 word joiner and invisible operators, U+FEFF, U+180E) have no picture: they
///   show as `\u{9B}`, the form a person can read and type back. The zero width
///   (non-)joiners U+200C/D stay: scripts and emoji sequences need them.
///
/// Everything else, including every printable letter of every script, is kept as it is.
public enum TerminalText {
    /// `text` with every control shown as a visible stand-in.
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !isSafe($0) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            append(scalar, to: &result)
        }
        return String(result)
    }

    /// `text` made safe line by line: its line breaks are kept (a message of several lines),
    /// every other control is shown as in `safe(_:)`. For whole messages that carry paths,
    /// titles and other text from anyone.
    public static func safeLines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !isSafe($0) && $0 != "\n" }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { safe(String($0)) }.joined(separator: "\n")
    }

    /// Whether `scalar` goes to the terminal as it is.
    public static func isSafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F, 0x80...0x9F, 0x061C, 0x180E, 0x200B, 0x200E, 0x200F, 0x2028...0x202E, 0x2060...0x2064,
            0x2066...0x2069, 0xFEFF:
            false
        default: true
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String.UnicodeScalarView) {
        switch scalar.value {
        case 0x00...0x1F:
            result.append(Unicode.Scalar(0x2400 + scalar.value) ?? "?")
        case 0x7F:
            result.append("\u{2421}")
        case _ where !isSafe(scalar):
            result.append(contentsOf: ("\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}").unicodeScalars)
        default:
            result.append(scalar)
        }
    }
}

extension String {
    /// Without Unicode white space at either end: the one trim for what a person types (a
    /// title, a path, a URL), in the app and on the command line alike.
    public var trimmingWhiteSpace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
