/// Greedy word wrapping for help texts.
public enum TextWrapping {
    /// The width help texts are wrapped to.
    public static let standardWidth = 80

    /// Wraps each line of `text` to `width` columns, breaking at spaces.
    ///
    /// Line breaks in `text` are kept. A word longer than the width gets a line of its own and
    /// is not cut. Counts characters, which is right for the ASCII of help texts.
    public static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// Two columns: each `label` padded to a shared width, its text wrapped beside it.
    ///
    /// Labels longer than `maximumLabelWidth` get their text on the next line instead. Every
    /// line starts with two spaces.
    public static func columns(
        _ rows: [(label: String, text: String)], width: Int = standardWidth, maximumLabelWidth: Int = 26
    ) -> [String] {
        let indent = "  "
        let labelWidth = min(rows.map(\.label.count).max() ?? 0, maximumLabelWidth)
        let textColumn = indent.count + labelWidth + 2
        let textWidth = max(width - textColumn, 20)
        let hangingIndent = String(repeating: " ", count: textColumn)
        var lines: [String] = []
        for row in rows {
            let textLines = wrap(row.text, width: textWidth)
            if row.label.count > labelWidth {
                lines.append(indent + row.label)
                lines += textLines.map { hangingIndent + $0 }
            } else {
                let padding = String(repeating: " ", count: labelWidth - row.label.count + 2)
                for (index, textLine) in textLines.enumerated() {
                    lines.append(index == 0 ? indent + row.label + padding + textLine : hangingIndent + textLine)
                }
            }
        }
        return lines.map { $0.trimmingTrailingSpaces() }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
