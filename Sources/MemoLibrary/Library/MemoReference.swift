/// What a MEMO argument names.
///
/// All digits (`2`, `0042`) is an id and only an id: a memo that is gone is never stood in for by
/// one whose title starts with those digits. `title:TEXT` is a title: the memo titled exactly
/// TEXT, else the only one whose title starts with it (`title:2` reaches "2 weeks plan").
/// Anything else is such a title too.
public enum MemoReference: Sendable, Equatable {
    /// A memo id, as the digits given (more digits than an id can have name no memo).
    case id(digits: String)
    /// A title, or a unique prefix of one.
    case title(String)

    /// The prefix that makes the rest of a MEMO argument a title.
    public static let titlePrefix = "title:"

    /// Reads a MEMO argument.
    public init(_ text: String) {
        if text.hasPrefix(Self.titlePrefix) {
            self = .title(String(text.dropFirst(Self.titlePrefix.count)))
        } else if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            self = .id(digits: text)
        } else {
            self = .title(text)
        }
    }
}
