import Interface

/// What a glyph becomes on a terminal whose locale is not UTF-8 (`LANG=C`, `POSIX`): the
/// app's own symbols get ASCII look-alikes, anything else not ASCII a `?` per column, so a
/// terminal that cannot show UTF-8 never receives it.
enum ASCIIGlyphs {
    /// The app's symbols and their ASCII stand-ins.
    static let table: [String: String] = [
        "█": "#", "▓": "#", "▒": "=", "░": "-", "─": "-", "━": "=", "┃": "|", "▶": ">", "◀": "<",
        "●": "*", "◎": "o", "❚": "|", "…": ".", "“": "\"", "”": "\"", "‘": "'", "’": "'",
        "—": "-", "–": "-", "−": "-", "·": ".", "×": "x", "→": ">", "←": "<", "↑": "^",
        "↓": "v", "⏎": "E", "⌫": "B", "␛": "^", "␡": "~", "§": "S", "�": "?", "♪": "~", "★": "*",
        // The waveform's eighth blocks, lowest to highest (█ is `#` above).
        "▁": "_", "▂": "_", "▃": ".", "▄": "-", "▅": "-", "▆": "=", "▇": "=",
    ]

    /// `glyph` (one cell's grapheme cluster) in ASCII, as many columns wide as it is.
    static func fallback(for glyph: String) -> String {
        if glyph.unicodeScalars.allSatisfy(\.isASCII) { return glyph }
        if let ascii = table[glyph] { return ascii }
        return String(repeating: "?", count: max(1, DisplayWidth.of(glyph)))
    }
}
