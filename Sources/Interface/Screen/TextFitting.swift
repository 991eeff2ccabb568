import Vocabulary

/// Fitting text into a number of columns, by display width. Text is sanitised first
/// (see `TerminalText.safe`), so what is measured is what will be drawn.
public enum TextFitting {
    /// `text` cut to at most `width` columns; when cut, it ends in `…`.
    public static func truncated(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        let text = TerminalText.safe(text)
        if DisplayWidth.of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = DisplayWidth.of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// The end of `text` in at most `width` columns; when cut, it starts with `…` (a caption
    /// that grows at its end keeps its newest words).
    public static func tail(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        let text = TerminalText.safe(text)
        if DisplayWidth.of(text) <= width { return text }
        var kept: [Character] = []
        var used = 0
        for character in text.reversed() {
            let columns = DisplayWidth.of(character)
            if used + columns > width - 1 { break }
            kept.append(character)
            used += columns
        }
        return "…" + String(kept.reversed())
    }

    /// `text` cut to `width` columns and padded with spaces to exactly `width`.
    public static func padded(_ text: String, toWidth width: Int) -> String {
        let fitted = truncated(text, toWidth: width)
        return fitted + String(repeating: " ", count: max(width - DisplayWidth.of(fitted), 0))
    }

    /// `text` right-aligned in exactly `width` columns.
    public static func rightAligned(_ text: String, toWidth width: Int) -> String {
        let fitted = truncated(text, toWidth: width)
        return String(repeating: " ", count: max(width - DisplayWidth.of(fitted), 0)) + fitted
    }

    /// `text` broken into lines of at most `width` columns, at spaces where possible.
    public static func wrapped(_ text: String, toWidth width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in TerminalText.safe(text).split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            let candidate = line.isEmpty ? word : line + " " + word
            if DisplayWidth.of(candidate) <= width {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            while DisplayWidth.of(word) > width {
                var head = ""
                var rest = Substring(word)
                while let next = rest.first, DisplayWidth.of(head) + DisplayWidth.of(next) <= width {
                    head.append(next)
                    rest = rest.dropFirst()
                }
                if head.isEmpty { return lines }
                lines.append(head)
                word = String(rest)
            }
            line = word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
