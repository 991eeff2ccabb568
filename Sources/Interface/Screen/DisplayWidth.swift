/// How many terminal columns text takes: East Asian Wide and Fullwidth characters and
/// emoji take two, combining marks and format characters none, everything else one.
///
/// The table covers the common ranges of Unicode's EastAsianWidth.txt (W and F), the
/// ranges glibc's `wcwidth` — and so the terminal — agrees on; emoji come from the
/// standard library's Unicode properties.
public enum DisplayWidth {
    /// Columns of one grapheme cluster (0, 1 or 2): the width of its first scalar
    /// that is not zero-width.
    public static func of(_ character: Character) -> Int {
        for scalar in character.unicodeScalars {
            let width = of(scalar)
            if width > 0 { return width }
        }
        return 0
    }

    /// Columns of a string (the sum over its grapheme clusters).
    public static func of(_ text: String) -> Int {
        var columns = 0
        for scalar in text.unicodeScalars {
            guard isPlain(scalar) else { return text.reduce(0) { $0 + of($1) } }
            columns += 1
        }
        return columns
    }

    /// Whether `scalar` is plain: printable (`TerminalText.isSafe`), one column wide, and a grapheme
    /// cluster of its own unless a scalar that is not plain follows it — Latin text, the meters'
    /// blocks and rules, dashes, arrows and maths signs. Text made only of plain scalars has one
    /// cluster, and one column, per scalar, so it is measured and drawn without breaking it into
    /// grapheme clusters (what most of a frame's cost was).
    @inline(__always)
    public static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x300 { return value >= 0x20 && (value < 0x7F || value >= 0xA0) }
        return (0x2010...0x2027).contains(value) || (0x2190...0x22FF).contains(value) || (0x2500...0x25FC).contains(value)
    }

    /// Columns of one scalar. Control characters count 1: `TerminalText.safe` replaces them
    /// with visible pictures before anything is measured or drawn.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        if isZeroWidth(scalar) { return 0 }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        if (0x1160...0x11FF).contains(scalar.value) { return true }  // Hangul medial vowels, final consonants
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return true
        case .format: return scalar.value != 0x00AD
        default: return false
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges outside the emoji blocks.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,
        0x1F260...0x1F265, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
