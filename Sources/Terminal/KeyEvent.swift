import Interface

/// What the keyboard delivered: a key, or the terminal changed size.
public enum KeyEvent: Sendable, Hashable {
    case key(Key)
    case resize
}

/// Turns what ncurses' `wget_wch` returns into key events: pure, so it is tested
/// without a terminal.
public enum KeyDecoder {
    /// `wget_wch`'s return value for a function key (`KEY_CODE_YES`).
    public static let functionKeyStatus: Int32 = 0o400
    /// `wget_wch`'s return value for a character (`OK`).
    public static let characterStatus: Int32 = 0

    /// ncurses key codes (curses.h), as constants so that tests need no curses.
    public enum Code {
        public static let down: UInt32 = 0o402, up: UInt32 = 0o403, left: UInt32 = 0o404, right: UInt32 = 0o405
        public static let home: UInt32 = 0o406, backspace: UInt32 = 0o407, delete: UInt32 = 0o512
        public static let pageDown: UInt32 = 0o522, pageUp: UInt32 = 0o523, enter: UInt32 = 0o527
        public static let end: UInt32 = 0o550, resize: UInt32 = 0o632
    }

    /// The event for one `wget_wch` result; `nil` when nothing was read.
    public static func decode(status: Int32, code: UInt32) -> KeyEvent? {
        if status == functionKeyStatus { return functionKey(code) }
        guard status == characterStatus else { return nil }
        switch code {
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 8, 127: return .key(.backspace)
        case 9: return .key(.tab)
        case 21: return .key(.clearToStart)
        case 12: return .key(.control("l"))
        case 0..<32: return .key(.other)
        default:
            guard let scalar = Unicode.Scalar(code) else { return .key(.other) }
            return .key(.character(Character(scalar)))
        }
    }

    private static func functionKey(_ code: UInt32) -> KeyEvent {
        switch code {
        case Code.resize: .resize
        case Code.up: .key(.up)
        case Code.down: .key(.down)
        case Code.left: .key(.left)
        case Code.right: .key(.right)
        case Code.home: .key(.home)
        case Code.end: .key(.end)
        case Code.pageUp: .key(.pageUp)
        case Code.pageDown: .key(.pageDown)
        case Code.backspace: .key(.backspace)
        case Code.delete: .key(.delete)
        case Code.enter: .key(.enter)
        default: .key(.other)
        }
    }
}
