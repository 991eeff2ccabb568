/// The type-erased description of one option, as the parser and the help formatter see it.
///
/// Commands declare typed ``Option`` and ``Flag`` values; each of them produces one of these.
/// The parser uses the erased form to recognise names and validate values in command-line
/// order, and the help formatter uses it to print the option list.
public struct OptionSpecification: Sendable {
    /// Whether an option stands alone or takes a value, and how that value is checked.
    public enum Kind: Sendable {
        /// A flag such as `--json`: present or absent, never with a value.
        case flag
        /// An option with a value such as `--rate HZ`.
        ///
        /// `validate` returns why a value is refused, or `nil` when it is accepted.
        case value(valueName: String, validate: @Sendable (String) -> ValueRejection?)
    }

    /// The long name without its dashes, e.g. `rate` for `--rate`.
    public let name: String
    /// The one-letter alias used as `-r`, if any.
    public let shortName: Character?
    /// One or two sentences for the help text.
    public let help: String
    /// What is used when the option is absent, as shown in the help text.
    public let defaultDescription: String?
    /// Whether this is a flag or takes a value.
    public let kind: Kind
    /// What a shell may offer for the value (`.none` for a flag).
    public let completion: ValueCompletion
    /// Whether it may be given more than once (`--tag work --tag draft`), each value kept.
    public let isRepeatable: Bool

    public init(
        name: String, shortName: Character? = nil, help: String,
        defaultDescription: String? = nil, kind: Kind, completion: ValueCompletion = .none, isRepeatable: Bool = false
    ) {
        self.isRepeatable = isRepeatable
        self.name = name
        self.shortName = shortName
        self.help = help
        self.defaultDescription = defaultDescription
        self.kind = kind
        self.completion = completion
    }

    /// The spelling a person types and reads in messages: `--rate`.
    public var longForm: String { "--" + name }

    /// The placeholder of the value in help texts (`HZ`), or `nil` for a flag.
    public var valueName: String? {
        switch kind {
        case .flag: nil
        case .value(let valueName, _): valueName
        }
    }

    /// The implicit `--help`/`-h` flag every command understands.
    public static let help = OptionSpecification(
        name: "help", shortName: "h", help: "Show this help.", kind: .flag)
}

/// Something a command lists among its options: an ``Option`` or a ``Flag``.
public protocol OptionDeclaring: Sendable {
    /// The erased form the parser and help formatter work with.
    var specification: OptionSpecification { get }
}
