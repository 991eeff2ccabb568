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
    /// Whether it takes every argument left (it must be the last positional): they are joined
    /// with single spaces into one value, so `search budget meeting` reads as
    /// `search "budget meeting"`.
    public let takesTheRest: Bool

    public init(
        name: String, help: String, isOptional: Bool = false, takesTheRest: Bool = false, parser: ValueParser<Value>
    ) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.takesTheRest = takesTheRest
        self.parser = parser
    }

    public var specification: PositionalSpecification {
        let parser = self.parser
        return PositionalSpecification(
            name: name, help: help, isOptional: isOptional, takesTheRest: takesTheRest,
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
    /// Whether it takes every argument left, joined with single spaces into one value.
    public let takesTheRest: Bool
    /// Returns why a value is refused, or `nil` when it is accepted.
    public let validate: @Sendable (String) -> ValueRejection?
    /// What a shell may offer for the value.
    public let completion: ValueCompletion

    public init(
        name: String, help: String, isOptional: Bool, takesTheRest: Bool = false,
        validate: @escaping @Sendable (String) -> ValueRejection?, completion: ValueCompletion = .none
    ) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.takesTheRest = takesTheRest
        self.validate = validate
        self.completion = completion
    }
}

/// Something a command lists among its positional arguments.
public protocol PositionalDeclaring: Sendable {
    /// The erased form the parser and help formatter work with.
    var specification: PositionalSpecification { get }
}
