/// A positional argument, such as the `MEMO` of `voicememo delete MEMO`, with its typed parser.
///
/// Positionals are matched in the order the command lists them. Optional ones must come last.
public struct Positional<Value>: PositionalDeclaring {
    /// The placeholder shown in usage lines and messages, e.g. `MEMO`.
    public let name: String
    /// One or two sentences for the help text.
    public let help: String
    /// Whether the command runs without it.
    public let isOptional: Bool
    /// Turns the text given on the command line into a typed value.
    public let parser: ValueParser<Value>

    public init(name: String, help: String, isOptional: Bool = false, parser: ValueParser<Value>) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.parser = parser
    }

    public var specification: PositionalSpecification {
        let parser = self.parser
        return PositionalSpecification(
            name: name, help: help, isOptional: isOptional,
            validate: { text in
                do throws(ValueRejection) {
                    _ = try parser.parse(text)
                    return nil
                } catch {
                    return error
                }
            },
            completion: parser.completion)
    }
}

/// The type-erased description of one positional argument.
public struct PositionalSpecification: Sendable {
    /// The placeholder shown in usage lines and messages, e.g. `MEMO`.
    public let name: String
    /// One or two sentences for the help text.
    public let help: String
    /// Whether the command runs without it.
    public let isOptional: Bool
    /// Returns why a value is refused, or `nil` when it is accepted.
    public let validate: @Sendable (String) -> ValueRejection?
    /// What a shell may offer for the value.
    public let completion: ValueCompletion

    public init(
        name: String, help: String, isOptional: Bool,
        validate: @escaping @Sendable (String) -> ValueRejection?, completion: ValueCompletion = .none
    ) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.validate = validate
        self.completion = completion
    }
}

/// Something a command lists among its positional arguments.
public protocol PositionalDeclaring: Sendable {
    /// The erased form the parser and help formatter work with.
    var specification: PositionalSpecification { get }
}
