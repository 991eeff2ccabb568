/// A y/N question on the status line (delete, purge, an edit, quit), in a long and a short
/// wording, and the rule that fits it into the status rows without losing the question.
///
/// `full` says the question, why it matters and the answer keys; `short` is the question and
/// the answer keys alone. `lines(width:rows:)` shows `full` wrapped when it fits the rows, else
/// `short` wrapped, else `short` with its question cut at a word and the answer keys kept: the
/// keys that answer are never cut, and a sentence is dropped whole rather than cut.
public struct Confirmation: Sendable, Hashable {
    public var full: String
    public var short: String
    /// The answer keys: the short wording ends with them.
    public static let answer = "(y/N)"

    public init(full: String, short: String) {
        self.full = full
        self.short = short
    }

    /// A question with no longer wording.
    public init(_ question: String) {
        self.init(full: question, short: question)
    }

    /// The lines to draw in `rows` rows of `width` columns. Pure.
    public func lines(width: Int, rows: Int) -> [String] {
        guard width > 0, rows > 0 else { return [] }
        for wording in [full, short] {
            let lines = TextFitting.wrapped(wording, toWidth: width)
            if lines.count <= rows, !lines.isEmpty { return lines }
        }
        // Not even the short wording fits: its question cut at a word, the answer kept at the end.
        let answer = " " + Self.answer
        let question = short.hasSuffix(answer) ? String(short.dropLast(answer.count)) : short
        let room = rows * width
        guard width > DisplayWidth.of(answer) + 1 else { return [TextFitting.truncated(Self.answer, toWidth: width)] }
        let lines = TextFitting.wrapped(Self.cutAtWord(question, toWidth: room - DisplayWidth.of(answer)) + answer, toWidth: width)
        if lines.count <= rows { return lines }
        return [Self.cutAtWord(question, toWidth: width - DisplayWidth.of(answer)) + answer]
    }

    /// How many status rows the full wording wants at `width`: 1 or 2.
    public func rowsWanted(width: Int) -> Int {
        TextFitting.wrapped(full, toWidth: max(width, 1)).count > 1 ? 2 : 1
    }

    /// `text` cut to `width` columns at the last space that leaves room for "…", or mid-word
    /// when there is none.
    static func cutAtWord(_ text: String, toWidth width: Int) -> String {
        let cut = TextFitting.truncated(text, toWidth: width)
        guard cut != text, let space = cut.dropLast().lastIndex(of: " ") else { return cut }
        return String(cut[..<space]) + "…"
    }
}
