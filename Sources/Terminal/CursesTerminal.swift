import CNCursesW
import Glibc
import Interface

/// The ncursesw backend: owns the terminal from `init` to `end()`, draws Screens
/// writing only the cells that changed, and reads keys without blocking.
///
/// Not thread-safe (neither is curses): use it from one queue.
public final class CursesTerminal {
    /// Why the terminal could not be set up.
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    private var previous: Screen?
    private var colorPairs: ColorPairs
    private var isEnded = false
    private let window: UnsafeMutablePointer<WINDOW>
    /// Standard error, kept off the screen while it is up (libmpg123, ALSA and libsndfile
    /// write there); `nil` when it could not be redirected.
    private let errorCapture: StandardErrorCapture?

    /// The last lines written to standard error since the screen was taken (shown nowhere:
    /// for tests and diagnostics).
    public var capturedErrorOutput: [String] { errorCapture?.capturedLines ?? [] }

    /// Whether the environment's locale is not UTF-8 (`LANG=C`): every glyph is drawn in ASCII
    /// (`ASCIIGlyphs`), since such a terminal may not show UTF-8.
    public let asciiOnly: Bool

    /// Whether colours are drawn (a colour terminal and colour allowed).
    public let usesColor: Bool

    /// Bytes `draw` asked curses to write since the last reset (cells × glyph bytes, a
    /// measure of how much the diffing saves).
    public private(set) var cellsDrawn = 0

    /// Sets the locale (UTF-8, falling back to C.UTF-8), starts curses in cbreak mode
    /// with keypad decoding and no echo, hides the cursor, and sets up colours.
    ///
    /// - Parameter allowsColor: `false` under `NO_COLOR`: attributes and glyphs only.
    /// - Throws: `SetupError` when standard input/output is not a terminal curses can use.
    public init(allowsColor: Bool) throws(SetupError) {
        asciiOnly = !Self.setUpLocale()
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw SetupError(description: "the full-screen app needs a terminal (standard input and output are not one)")
        }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard !term.isEmpty, term != "dumb" else {
            throw SetupError(description: "the full-screen app needs a terminal that can move the cursor (TERM is '\(term)')")
        }
        // CAN first: it ends an escape sequence a frame cut short may have left half-sent.
        voicememo_install_fatal_restore("\u{18}\u{1B}[?1049l\u{1B}[?25h\u{1B}[0m\r\n")
        guard let screen = voicememo_newterm() else {
            voicememo_uninstall_fatal_restore()
            throw SetupError(description: "curses cannot use the terminal '\(term)'")
        }
        set_term(screen)
        guard let window = voicememo_stdscr() else {
            endwin()
            voicememo_uninstall_fatal_restore()
            throw SetupError(description: "curses started without a screen")
        }
        self.window = window
        cbreak()
        noecho()
        nonl()
        Self.disableFlowControl()
        keypad(window, true)
        nodelay(window, true)
        set_escdelay(25)
        curs_set(0)
        var colored = false
        if allowsColor, has_colors() {
            start_color()
            use_default_colors()
            colored = true
        }
        usesColor = colored
        colorPairs = ColorPairs(enabled: colored)
        errorCapture = StandardErrorCapture()
    }

    /// Turns off XON/XOFF flow control, which cbreak mode keeps: Ctrl-S would otherwise
    /// freeze the screen until Ctrl-Q, and a person who pressed it would see a hung app.
    /// Recorded as curses' program mode, so that `endwin` still restores the shell's own.
    private static func disableFlowControl() {
        var attributes = termios()
        guard tcgetattr(STDIN_FILENO, &attributes) == 0 else { return }
        attributes.c_iflag &= ~tcflag_t(IXON)
        if tcsetattr(STDIN_FILENO, TCSANOW, &attributes) == 0 {
            def_prog_mode()
        }
    }

    deinit {
        end()
    }

    /// The terminal's size in columns and rows.
    public var size: (width: Int, height: Int) {
        (Int(getmaxx(window)), Int(getmaxy(window)))
    }

    /// Draws `screen`, writing only the cells that differ from the last one drawn.
    public func draw(_ screen: Screen) {
        guard !isEnded else { return }
        if let previous, previous.width != screen.width || previous.height != screen.height {
            werase(window)
        }
        let changes = ScreenDiff.changes(from: previous, to: screen)
        for change in changes {
            let cell = change.cell
            let pair = colorPairs.pair(for: cell.style)
            let glyph = asciiOnly ? ASCIIGlyphs.fallback(for: cell.glyph) : cell.glyph
            _ = voicememo_draw_text(window, Int32(change.y), Int32(change.x), glyph, attributes(cell.style.attributes), pair)
        }
        cellsDrawn += changes.count
        previous = screen
        if !changes.isEmpty { wrefresh(window) }
    }

    /// Rings the terminal's bell (curses `beep`: the audible bell, or a flash where there is none).
    public func ringBell() {
        guard !isEnded else { return }
        _ = beep()
    }

    /// Forgets what is on the terminal so the next `draw` writes every cell.
    public func invalidate() {
        previous = nil
        clearok(window, true)
    }

    /// The next key or resize, or `nil` when none is waiting.
    public func readKey() -> KeyEvent? {
        guard !isEnded else { return nil }
        var code: wint_t = 0
        let status = wget_wch(window, &code)
        return KeyDecoder.decode(status: status, code: UInt32(code))
    }

    /// Gives the terminal back as it was. Idempotent; also done by `deinit`.
    public func end() {
        guard !isEnded else { return }
        isEnded = true
        if voicememo_has_alternate_screen() == 0 {
            // No alternate screen to leave (TERM=vt100): clear what was drawn, so the shell's
            // prompt does not land on the app's last line.
            werase(window)
            wmove(window, 0, 0)
            wrefresh(window)
        }
        curs_set(1)
        endwin()
        errorCapture?.restore()
        voicememo_uninstall_fatal_restore()
    }

    private func attributes(_ attributes: Style.Attributes) -> attr_t {
        var result = voicememo_a_normal()
        if attributes.contains(.bold) { result |= voicememo_a_bold() }
        if attributes.contains(.dim) { result |= voicememo_a_dim() }
        if attributes.contains(.reverse) { result |= voicememo_a_reverse() }
        if attributes.contains(.underline) { result |= voicememo_a_underline() }
        return result
    }

    /// The environment's locale decides (`LocaleCharset.isUTF8`), then the process is set to
    /// C.UTF-8 when it is not UTF-8 (so that curses still takes our UTF-8 strings; what is drawn
    /// is then ASCII, see `asciiOnly`).
    ///
    /// - Returns: whether the environment's own locale is UTF-8.
    @discardableResult
    static func setUpLocale() -> Bool {
        let environmentIsUTF8 = LocaleCharset.isUTF8
        if !environmentIsUTF8 { setlocale(LC_ALL, "C.UTF-8") }
        return environmentIsUTF8
    }
}
