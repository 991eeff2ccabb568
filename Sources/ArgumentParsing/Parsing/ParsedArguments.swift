/// The arguments of one command line, matched against a ``CommandSpecification`` and checked.
///
/// Every value in here was accepted by its parser already, so reading it with the same
/// declaration does not fail in practice; the accessors still throw rather than trap.
public struct ParsedArguments: Sendable {
    /// The values of options, keyed by long name.
    let optionValues: [String: String]
    /// The long names of the flags that were given.
    let flags: Set<String>
    /// Every value of each option, in order (a repeatable option has more than one).
    let optionLists: [String: [String]]
    /// The values of positionals, keyed by placeholder name.
    let positionalValues: [String: String]
    /// The words a positional that takes the rest was given, one per argument.
    let positionalLists: [String: [String]]

    init(
        optionValues: [String: String], optionLists: [String: [String]] = [:], flags: Set<String>,
        positionalValues: [String: String], positionalLists: [String: [String]] = [:]
    ) {
        self.optionValues = optionValues
        self.optionLists = optionLists
        self.flags = flags
        self.positionalValues = positionalValues
        self.positionalLists = positionalLists
    }

    /// Every typed value of a repeatable `option`, in command-line order (none when absent).
    ///
    /// - Throws: ``UsageError/invalidValue(argument:value:rejection:)`` if the parser refuses one.
    public func values<Value>(of option: Option<Value>) throws(UsageError) -> [Value] {
        var values: [Value] = []
        for text in optionLists[option.name] ?? [] {
            do throws(ValueRejection) {
                values.append(try option.parser.parse(text))
            } catch {
                throw .invalidValue(argument: option.longForm, value: text, rejection: error)
            }
        }
        return values
    }

    /// The arguments a positional that takes the rest was given, one per argument as typed
    /// (its `value` joins them with spaces); empty when absent.
    public func words<Value>(of positional: Positional<Value>) -> [String] {
        positionalLists[positional.name] ?? []
    }

    /// Whether `flag` was given.
    public func isSet(_ flag: Flag) -> Bool {
        flags.contains(flag.name)
    }

    /// Whether `option` (an ``Option`` or a ``Flag``) was given, whatever its value.
    public func contains(_ option: any OptionDeclaring) -> Bool {
        let name = option.specification.name
        return optionValues[name] != nil || flags.contains(name)
    }

    /// The text given for `option`, exactly as typed, or `nil` when absent.
    public func text<Value>(of option: Option<Value>) -> String? {
        optionValues[option.name]
    }

    /// The typed value of `option`, or `nil` when it was not given.
    ///
    /// - Throws: ``UsageError/invalidValue(argument:value:rejection:)`` if the parser refuses.
    public func value<Value>(of option: Option<Value>) throws(UsageError) -> Value? {
        guard let text = optionValues[option.name] else { return nil }
        do throws(ValueRejection) {
            return try option.parser.parse(text)
        } catch {
            throw .invalidValue(argument: option.longForm, value: text, rejection: error)
        }
    }

    /// The text given for `positional`, exactly as typed, or `nil` when absent.
    public func text<Value>(of positional: Positional<Value>) -> String? {
        positionalValues[positional.name]
    }

    /// The typed value of `positional`, or `nil` when an optional positional was not given.
    ///
    /// - Throws: ``UsageError/invalidValue(argument:value:rejection:)`` if the parser refuses.
    public func value<Value>(of positional: Positional<Value>) throws(UsageError) -> Value? {
        guard let text = positionalValues[positional.name] else { return nil }
        do throws(ValueRejection) {
            return try positional.parser.parse(text)
        } catch {
            throw .invalidValue(argument: positional.name, value: text, rejection: error)
        }
    }

    /// The typed value of a required `positional`.
    ///
    /// - Throws: ``UsageError/missingArgument(_:)`` when absent (the parser already refuses
    ///   that for required positionals), or the parser's refusal.
    public func requiredValue<Value>(of positional: Positional<Value>) throws(UsageError) -> Value {
        guard let value = try value(of: positional) else { throw .missingArgument(positional.name) }
        return value
    }
}
