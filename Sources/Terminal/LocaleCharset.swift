import CNCursesW
import Glibc
import Interface

/// Whether what VoiceMemo writes for people may be UTF-8: the one place that decides, for the
/// full-screen app's renderer and the command line's messages alike.
///
/// The environment's locale (`LC_ALL`, `LC_CTYPE`, `LANG`) is taken with `setlocale(LC_ALL, "")`
/// and its codeset read with `nl_langinfo(CODESET)`, once, the first time it is asked: `C` and
/// `POSIX` (codeset `ANSI_X3.4-1968`) or any other non-UTF-8 codeset get ASCII. The app then sets
/// the process to C.UTF-8 for curses; the answer stays the environment's.
public enum LocaleCharset {
    /// Whether the environment's locale has the UTF-8 codeset.
    public static let isUTF8: Bool = {
        setlocale(LC_ALL, "")
        return codesetIsUTF8(String(cString: voicememo_codeset()))
    }()

    /// Whether `codeset` (as `nl_langinfo(CODESET)` names it) is UTF-8.
    static func codesetIsUTF8(_ codeset: String) -> Bool {
        let name = codeset.uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    /// `text` with VoiceMemo's own symbols in ASCII (`ASCIIGlyphs.table`: quotes, dashes,
    /// arrows, ×, ellipsis, LED and box-drawing glyphs). Everything else passes through as it
    /// is: titles and paths are the user's bytes, and a script run with no locale (cron) must
    /// get back the path it gave, not one with `?` in it. The screen goes further (every cell
    /// in ASCII, `ASCIIGlyphs.fallback`), as curses draws there.
    /// A control's picture (`TerminalText.safe`: ␛, ␇, ␡) in caret notation, as `cat -v` shows
    /// the control itself: `^[`, `^G`, `^?`.
    static func caretNotation(of character: Character) -> String? {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return nil }
        switch scalar.value {
        case 0x2400...0x241F: return "^" + String(UnicodeScalar(UInt8(scalar.value - 0x2400 + 0x40)))
        case 0x2421: return "^?"
        default: return nil
        }
    }

    public static func asciiSymbols(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            let glyph = String(character)
            if let ascii = ASCIIGlyphs.table[glyph] {
                result += ascii
            } else if let picture = Self.caretNotation(of: character) {
                result += picture
            } else {
                result += glyph
            }
        }
        return result
    }
}
