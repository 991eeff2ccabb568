/// Makes a title safe to print on a terminal: nothing in it can move the cursor, change colours,
/// set the window title, or reorder the line.
public enum TitleText {
    /// `text` with C0 controls shown as their U+2400 "control picture" (ESC → ␛, NUL → ␀), DEL as ␡,
    /// and C1 controls, bidirectional overrides and isolates shown as `\u{…}`.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F:
                result.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value) ?? "?")
            case 0x7F:
                result.unicodeScalars.append("\u{2421}")
            case 0x80...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension Memo {
    /// The title, safe to print on a terminal (`TitleText.escaped`).
    public var displayTitle: String {
        TitleText.escaped(title)
    }
}
