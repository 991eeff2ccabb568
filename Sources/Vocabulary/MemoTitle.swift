
/// The rules for memo titles: what is accepted, the longest, and the words for a refusal. The one
/// rule for the library, the command line and the app (the default title's text is here; the
/// library's `defaultTitle(for:timeZone:prefix:)` finds a date's fields with a calendar, the app
/// with its pure clock, `CivilTime`).
public enum MemoTitle {
    /// The title a new memo gets unless one is given: `Memo 2026-11-29 14:03:12` (local time, to
    /// the second, so memos made a minute apart or less still differ). The one rule for a
    /// recording, a voice take (`prefix` from `--title`) and the app.
    public static func defaultTitle(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, prefix: String = "Memo"
    ) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(width - digits.count, 0)) + digits
        }
        return "\(prefix) \(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2)) "
            + "\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))"
    }

    /// The most characters (grapheme clusters) a title may have.
    public static let maximumLength = 500

    /// Why a title was refused; `description` is the sentence a person reads.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case whitespaceOnly
        case tooLong(characters: Int)

        public var description: String {
            switch self {
            case .empty: "the title is empty; give at least one visible character"
            case .whitespaceOnly:
                "the title is only whitespace or invisible characters (such as U+200B); give at least one visible character"
            case .tooLong(let count): "the title has \(count) characters; at most \(MemoTitle.maximumLength) are allowed"
            }
        }
    }

    /// The title as stored for `title` as given (typed in the app, passed to `record --title` or
    /// `rename`): without white space at either end (spaces typed around it, a script's trailing
    /// newline), or why it is refused.
    ///
    /// - Throws: the `Problem`, as `validate`.
    public static func accepted(_ title: String) throws(Problem) -> String {
        guard !title.isEmpty else { throw .empty }
        let trimmed = title.trimmingWhiteSpace
        guard !trimmed.isEmpty else { throw .whitespaceOnly }
        try validate(trimmed)
        return trimmed
    }

    /// A title made from text found elsewhere (a stream's ICY `StreamTitle`, its `icy-name`),
    /// which nobody typed and nobody can shorten first: white space at either end dropped, and
    /// over `maximumLength` characters cut to fit, ending in "…". Nil when nothing visible is left.
    public static func fitted(_ text: String) -> String? {
        do {
            return try accepted(text)
        } catch .tooLong {
            let kept = String(text.trimmingWhiteSpace.prefix(maximumLength - 1)).trimmingWhiteSpace
            return try? accepted(kept + "…")
        } catch {
            return nil
        }
    }

    /// Accepts `title` as it is (a stored or adopted title), or says why not.
    ///
    /// Any Unicode is kept, control characters and NUL included: titles are never used in paths,
    /// and whoever prints one makes it safe first (`TerminalText.safe`, `Memo.displayTitle`).
    /// - Throws: `.empty`, `.whitespaceOnly` for a title of only whitespace and invisible
    ///   characters, `.tooLong` for one over 500 characters.
    public static func validate(_ title: String) throws(Problem) {
        if title.isEmpty {
            throw .empty
        }
        // Nothing a person can see: spaces, and invisible characters such as U+200B (zero width
        // space), U+2060 or U+FEFF, which would make a title that looks blank in every list.
        if title.unicodeScalars.allSatisfy({
            $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint
                || $0.properties.generalCategory == .format || $0.properties.generalCategory == .control
        }) {
            throw .whitespaceOnly
        }
        let count = title.count
        if count > maximumLength {
            throw .tooLong(characters: count)
        }
    }
}
