/// An option without a value, such as `--json`: either present or absent.
public struct Flag: OptionDeclaring {
    /// The long name without its dashes, e.g. `json` for `--json`.
    public let name: String
    /// The one-letter alias, if any.
    public let shortName: Character?
    /// One or two sentences for the help text.
    public let help: String

    public init(name: String, shortName: Character? = nil, help: String) {
        self.name = name
        self.shortName = shortName
        self.help = help
    }

    /// The spelling a person types and reads in messages: `--json`.
    public var longForm: String { "--" + name }

    public var specification: OptionSpecification {
        OptionSpecification(name: name, shortName: shortName, help: help, kind: .flag)
    }
}
