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

    /// `text` with every character that is not ASCII replaced by its look-alike (`ASCIIGlyphs`:
    /// quotes, dashes, arrows, ×, LED and box-drawing glyphs) or by `?` per column.
    public static func ascii(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            let glyph = String(character)
            // A line end is one grapheme with its carriage return ("\r\n"), and ASCII.
            result += glyph.unicodeScalars.allSatisfy(\.isASCII) ? glyph : ASCIIGlyphs.fallback(for: glyph)
        }
        return result
    }

    /// `text` as it may be written here: as is under a UTF-8 locale, else `ascii(text)`.
    public static func displayable(_ text: String) -> String {
        isUTF8 ? text : ascii(text)
    }
}
