/// The rules for memo tags: what a tag may be, how tags compare, and how a list of tag changes
/// (`+work -draft`) is read. The one rule for the library, the command line and the app.
///
/// A tag is one word of at most 64 characters with no white space and no control characters
/// (nor invisible formatting ones such as U+202E).
/// Tags are folded to lower case when accepted (`Work` and `work` are the same tag), so a tag is
/// stored, shown and matched in one spelling.
public enum MemoTag {
    /// The most characters (grapheme clusters) a tag may have.
    public static let maximumLength = 64

    /// Why a tag was refused; `description` names the rule.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case whiteSpace(String)
        case controlCharacter(String)
        case tooLong(String, characters: Int)

        public var description: String {
            switch self {
            case .empty: "a tag cannot be empty"
            case .whiteSpace(let tag): "the tag \(Self.quoted(tag)) has white space; a tag is one word without spaces"
            case .controlCharacter(let tag):
                "the tag \(Self.quoted(tag)) has a control character or an invisible one; a tag has only visible characters"
            case .tooLong(let tag, let count):
                "the tag \(Self.quoted(String(tag.prefix(20))))… has \(count) characters; at most \(MemoTag.maximumLength) are allowed"
            }
        }

        private static func quoted(_ tag: String) -> String {
            "“" + TerminalText.safe(tag) + "”"
        }
    }

    /// The tag as stored for `tag` as given: folded to lower case, or why it is refused.
    ///
    /// - Throws: `.empty`, `.whiteSpace`, `.controlCharacter`, `.tooLong` (over 64 characters).
    public static func accepted(_ tag: String) throws(Problem) -> String {
        guard !tag.isEmpty else { throw .empty }
        // Control characters, and the invisible formatting ones that reorder or hide text
        // (U+202E, U+200B); the zero width joiner of an emoji sequence stays.
        if tag.unicodeScalars.contains(where: {
            $0.properties.generalCategory == .control || ($0.properties.generalCategory == .format && $0 != "\u{200D}")
        }) {
            throw .controlCharacter(tag)
        }
        if tag.unicodeScalars.contains(where: { $0.properties.isWhitespace }) {
            throw .whiteSpace(tag)
        }
        guard tag.count <= maximumLength else { throw .tooLong(tag, characters: tag.count) }
        return tag.lowercased()
    }

    /// `tags` as stored: each accepted, duplicates dropped, in the order first given.
    ///
    /// - Throws: the `Problem` of the first tag refused.
    public static func accepted(_ tags: [String]) throws(Problem) -> [String] {
        var result: [String] = []
        for tag in tags {
            let folded = try accepted(tag)
            if !result.contains(folded) { result.append(folded) }
        }
        return result
    }

    /// A memo's tags as one line, in the order given: `work draft` (empty for none).
    public static func joined(_ tags: [String]) -> String {
        tags.joined(separator: " ")
    }

    /// A stored line of tags as a list; a word that is not a valid tag is dropped (a file's
    /// comment edited by hand).
    public static func split(_ line: String) -> [String] {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        return (try? accepted(words)) ?? words.compactMap { try? accepted($0) }
    }

    /// A change to a memo's tags: tags to add and tags to remove.
    public struct Change: Sendable, Equatable {
        public var added: [String]
        public var removed: [String]
        /// When set, the memo's tags become exactly these (a list given without `+`/`-`).
        public var replacement: [String]?

        public init(added: [String] = [], removed: [String] = [], replacement: [String]? = nil) {
            self.added = added
            self.removed = removed
            self.replacement = replacement
        }

        /// Whether it changes nothing.
        public var isEmpty: Bool { added.isEmpty && removed.isEmpty && replacement == nil }

        /// `tags` changed: the replacement (if any), then removals, then additions at the end.
        public func applied(to tags: [String]) -> [String] {
            var result = replacement ?? tags
            result.removeAll { removed.contains($0) }
            for tag in added where !result.contains(tag) { result.append(tag) }
            return result
        }
    }

    /// Reads words such as `+work -draft`: `+` adds, `-` removes. Words without a sign are a
    /// full list the tags become (`work urgent`); signed and unsigned words cannot be mixed.
    ///
    /// - Throws: `ChangeProblem`: a tag refused, or a mix of signed and unsigned words.
    public static func change(_ words: [String]) throws(ChangeProblem) -> Change {
        var change = Change()
        var plain: [String] = []
        do throws(Problem) {
            for word in words {
                if word.hasPrefix("+") {
                    let tag = try accepted(String(word.dropFirst()))
                    change.removed.removeAll { $0 == tag }
                    if !change.added.contains(tag) { change.added.append(tag) }
                } else if word.hasPrefix("-") {
                    let tag = try accepted(String(word.dropFirst()))
                    change.added.removeAll { $0 == tag }
                    if !change.removed.contains(tag) { change.removed.append(tag) }
                } else {
                    plain.append(word)
                }
            }
            if !plain.isEmpty, change.added.isEmpty, change.removed.isEmpty {
                change.replacement = try accepted(plain)
            }
        } catch {
            throw .tag(error)
        }
        if !plain.isEmpty, change.replacement == nil { throw .mixed }
        return change
    }

    /// Why a list of tag changes was refused.
    public enum ChangeProblem: Error, Sendable, Equatable, CustomStringConvertible {
        case tag(Problem)
        case mixed

        public var description: String {
            switch self {
            case .tag(let problem): problem.description
            case .mixed: "give either changes (+tag, -tag) or the full list of tags (tag tag), not both"
            }
        }
    }
}
