import Vocabulary

extension Memo {
    /// The title, safe to print on a terminal (`TerminalText.safe`).
    public var displayTitle: String {
        TerminalText.safe(title)
    }
}
