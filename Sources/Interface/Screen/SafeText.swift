/// Makes text safe to put on a terminal: nothing in it can move the cursor, change
/// colours, ring the bell or reorder what follows.
///
/// C0 controls become their Control Pictures (ESC → `␛`, so an escape sequence shows up
/// as `␛[31m`, harmless), DEL becomes `␡`, C1 controls, bidirectional overrides and
/// line/paragraph separators become `�`. Everything else is kept.
public enum SafeText {
    /// `text` with every control replaced by a visible placeholder.
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsReplacement) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(replacement(for: scalar))
        }
        return String(result)
    }

    private static func needsReplacement(_ scalar: Unicode.Scalar) -> Bool {
        replacement(for: scalar) != scalar
    }

    private static func replacement(for scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x00...0x1F:
            return Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}"
        case 0x7F:
            return "\u{2421}"
        case 0x80...0x9F, 0x200E...0x200F, 0x2028...0x202E, 0x2066...0x2069:
            return "\u{FFFD}"
        default:
            return scalar
        }
    }
}
