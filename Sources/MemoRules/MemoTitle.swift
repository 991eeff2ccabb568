import TerminalText

/// The rules for memo titles: what is accepted, the longest, and the words for a refusal. The one
/// rule for the library, the command line and the app (the default title, which needs a calendar,
/// is the library's `MemoTitle.defaultTitle`).
public enum MemoTitle {
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
