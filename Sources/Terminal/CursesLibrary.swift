import CNCursesW

/// Facts about the ncursesw this binary runs against.
public enum CursesLibrary {
    /// ncurses' version, e.g. "ncurses 6.4.20221231".
    public static var version: String {
        String(cString: curses_version())
    }
}
