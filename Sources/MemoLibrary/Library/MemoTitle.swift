import Foundation
import TerminalText

/// The rules for memo titles: what is accepted, and the default.
public enum MemoTitle {
    /// The most characters (grapheme clusters) a title may have.
    public static let maximumLength = 500

    /// The title as stored for `title` as given (typed in the app, passed to `record --title` or
    /// `rename`): without white space at either end (spaces typed around it, a script's trailing
    /// newline), or why it is refused. The one rule for the app and the command line.
    ///
    /// - Throws: `.invalidTitle`, as `validate`.
    public static func accepted(_ title: String) throws(MemoLibraryError) -> String {
        guard !title.isEmpty else { throw .invalidTitle(.empty) }
        let trimmed = trimmed(title)
        guard !trimmed.isEmpty else { throw .invalidTitle(.whitespaceOnly) }
        try validate(trimmed)
        return trimmed
    }

    /// `title` without Unicode white space at either end.
    static func trimmed(_ title: String) -> String { title.trimmingWhiteSpace }

    /// Accepts `title` as it is (a stored or adopted title), or says why not.
    ///
    /// Any Unicode is kept, control characters and NUL included: titles are never used in paths,
    /// and whoever prints one makes it safe first (`TerminalText.safe`, `Memo.displayTitle`).
    /// - Throws: `.invalidTitle` for an empty title, one of only whitespace and invisible
    ///   characters, or one over 500 characters.
    public static func validate(_ title: String) throws(MemoLibraryError) {
        if title.isEmpty {
            throw .invalidTitle(.empty)
        }
        // Nothing a person can see: spaces, and invisible characters such as U+200B (zero width
        // space), U+2060 or U+FEFF, which would make a title that looks blank in every list.
        if title.unicodeScalars.allSatisfy({
            $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint
                || $0.properties.generalCategory == .format || $0.properties.generalCategory == .control
        }) {
            throw .invalidTitle(.whitespaceOnly)
        }
        let count = title.count
        if count > maximumLength {
            throw .invalidTitle(.tooLong(characters: count))
        }
    }

    /// The title a new memo gets unless one is given: `Memo 2026-11-29 14:03:12` (local time, to
    /// the second, so memos made a minute apart or less still differ). The one rule for a
    /// recording, a voice take (`prefix` from `--title`) and the app (which builds the same text
    /// from its pure clock: `CivilTime`).
    public static func defaultTitle(for date: Date, timeZone: TimeZone, prefix: String = "Memo") -> String {
        let parts = Calendar.gregorian(in: timeZone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(value ?? 0).leftPadded(to: 2) }
        return "\(prefix) \(String(parts.year ?? 0).leftPadded(to: 4))-\(two(parts.month))-\(two(parts.day)) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }
}

extension Calendar {
    /// The Gregorian calendar in `timeZone`.
    static func gregorian(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
