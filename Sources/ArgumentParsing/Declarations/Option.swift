/// An option that takes a value, such as `--rate 48000` or `--rate=48k`, with its typed parser.
///
/// Declare it once (usually as a `static let`) and use the same value both in the command's
/// ``CommandSpecification`` and to read the typed result from ``ParsedArguments``.
public struct Option<Value>: OptionDeclaring {
    /// The long name without its dashes, e.g. `rate` for `--rate`.
    public let name: String
    /// The one-letter alias used as `-r`, if any.
    public let shortName: Character?
    /// The placeholder of the value in help texts, e.g. `HZ`.
    public let valueName: String
    /// One or two sentences for the help text.
    public let help: String
    /// What is used when the option is absent, as shown in the help text.
    public let defaultDescription: String?
    /// Turns the text given on the command line into a typed value.
    public let parser: ValueParser<Value>
    /// Whether it may be given more than once, each value kept (`ParsedArguments.values(of:)`).
    public let isRepeatable: Bool

    public init(
        name: String, shortName: Character? = nil, valueName: String, help: String,
        defaultDescription: String? = nil, isRepeatable: Bool = false, parser: ValueParser<Value>
    ) {
        self.isRepeatable = isRepeatable
        self.name = name
        self.shortName = shortName
        self.valueName = valueName
        self.help = help
        self.defaultDescription = defaultDescription
        self.parser = parser
    }

    /// The spelling a person types and reads in messages: `--rate`.
    public var longForm: String { "--" + name }

    public var specification: OptionSpecification {
        let parser = self.parser
        return OptionSpecification(
            name: name, shortName: shortName, help: help,
            defaultDescription: defaultDescription,
            kind: .value(valueName: valueName, validate: { text in
                do throws(ValueRejection) {
                    _ = try parser.parse(text)
                    return nil
                } catch {
                    return error
                }
            }),
            completion: parser.completion, isRepeatable: isRepeatable)
    }
}
