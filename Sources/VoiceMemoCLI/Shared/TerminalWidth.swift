import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How wide the output is, and how wide text is on a terminal.
enum TerminalWidth {
    /// `COLUMNS` when set to a positive number, else the terminal's width when standard output is
    /// one (TIOCGWINSZ), else 80.
    static func columns(environment: [String: String], isTerminal: Bool) -> Int {
        if let text = environment["COLUMNS"], let value = Int(text), value > 0 {
            return value
        }
        if isTerminal {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
                return Int(size.ws_col)
            }
        }
        return 80
    }

    /// The columns `text` takes on a terminal: 2 for East Asian wide and emoji characters,
    /// 0 for combining marks and zero-width characters, 1 otherwise (per grapheme cluster).
    static func displayWidth(of text: String) -> Int {
        text.reduce(0) { $0 + displayWidth(of: $1) }
    }

    /// The columns one character (grapheme cluster) takes.
    static func displayWidth(of character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars {
            width = max(width, displayWidth(of: scalar))
        }
        return width
    }

    private static func displayWidth(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` cut to at most `width` columns, ending in "…" when cut.
    static func truncated(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if displayWidth(of: text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let next = displayWidth(of: character)
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    /// `text` padded with spaces to `width` columns (cut first if longer).
    static func padded(_ text: String, to width: Int) -> String {
        let cut = truncated(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - displayWidth(of: cut)))
    }
}
