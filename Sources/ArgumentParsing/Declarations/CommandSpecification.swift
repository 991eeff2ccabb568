/// Everything a command declares about its arguments: its name, its words for the help text,
/// its options and its positional arguments.
///
/// Every command also understands `--help`/`-h` without declaring it.
public struct CommandSpecification: Sendable {
    /// The words that invoke the command after the program name, e.g. `record`.
    public let name: String
    /// One sentence saying what the command does.
    public let abstract: String
    /// Further paragraphs for the help text, separated by blank lines.
    public let discussion: String?
    /// The declared options, in the order the help text lists them.
    public let options: [OptionSpecification]
    /// The positional arguments, in the order they are given.
    public let positionals: [PositionalSpecification]
    /// Whether a word that starts with one dash and names no short option (`-draft`) is a
    /// positional rather than a mistake (`tag MEMO +work -draft`).
    public let takesDashedWords: Bool

    public init(
        name: String, abstract: String, discussion: String? = nil,
        options: [any OptionDeclaring] = [], positionals: [any PositionalDeclaring] = [],
        takesDashedWords: Bool = false
    ) {
        self.takesDashedWords = takesDashedWords
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options.map(\.specification)
        self.positionals = positionals.map(\.specification)
    }

    /// The declared options followed by the implicit `--help`.
    public var optionsIncludingHelp: [OptionSpecification] {
        options + [OptionSpecification.help]
    }
}
