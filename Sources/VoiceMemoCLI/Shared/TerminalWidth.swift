import Foundation
import Interface

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

    /// The columns `text` takes on a terminal: the screen's rule (`DisplayWidth`), so a title
    /// lines up the same in `list` and in the app.
    static func displayWidth(of text: String) -> Int {
        DisplayWidth.of(text)
    }

    /// The columns one character (grapheme cluster) takes.
    static func displayWidth(of character: Character) -> Int {
        DisplayWidth.of(character)
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
