/// Matches a command line against a ``CommandSpecification``.
///
/// Grammar:
/// - `--name VALUE` and `--name=VALUE` for options with a value; `-n VALUE` for a short alias.
///   The next argument is taken as the value unless it starts with `-` and is not a negative
///   number, so `--vox-threshold -40` works and `--title --json` reports a missing value (write
///   `--title=--json` to mean it).
/// - `--flag` and `-f` for flags; `--flag=VALUE` is refused.
/// - `--` ends the options: everything after it is positional, even `--help`.
/// - `-` alone is a positional (by convention standard input or output).
/// - A last positional that takes the rest (`WORDS...`) joins every argument left with spaces.
/// - `--help`/`-h` anywhere before `--` asks for help, even when other arguments are wrong.
///
/// Each option may be given at most once, but for a repeatable one (each value kept). Values are checked by their parsers here, in
/// command-line order, so the first mistake in the line is the one reported.
public struct ArgumentParser: Sendable {
    /// What a successful parse produced.
    public enum Outcome: Sendable {
        /// The arguments, all recognised and valid.
        case arguments(ParsedArguments)
        /// `--help` or `-h` was given: show the command's help instead of running it.
        case helpRequested
    }

    /// The command whose arguments are parsed.
    public let specification: CommandSpecification

    public init(_ specification: CommandSpecification) {
        self.specification = specification
    }

    /// Parses `arguments`, which follow the command's name (`record --rate 48k` gives
    /// `["--rate", "48k"]`).
    ///
    /// - Throws: the first ``UsageError`` in command-line order, unless help was requested.
    public func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
        var scan = Scan(options: specification.optionsIncludingHelp, takesDashedWords: specification.takesDashedWords)
        scan.run(arguments)
        if scan.helpRequested { return .helpRequested }
        if let error = scan.firstError { throw error }
        let (positionalValues, rest) = try matchPositionals(scan.positionals)
        return .arguments(
            ParsedArguments(
                optionValues: scan.optionValues, optionLists: scan.optionLists, flags: scan.flags,
                positionalValues: positionalValues, positionalLists: rest))
    }

    private func matchPositionals(_ given: [String]) throws(UsageError) -> ([String: String], [String: [String]]) {
        var values: [String: String] = [:]
        var lists: [String: [String]] = [:]
        for (index, positional) in specification.positionals.enumerated() {
            guard index < given.count else {
                if positional.isOptional { break }
                throw .missingArgument(positional.name)
            }
            let text = positional.takesTheRest ? given[index...].joined(separator: " ") : given[index]
            if let rejection = positional.validate(text) {
                throw .invalidValue(argument: positional.name, value: text, rejection: rejection)
            }
            values[positional.name] = text
            if positional.takesTheRest {
                lists[positional.name] = Array(given[index...])
                return (values, lists)
            }
        }
        if given.count > specification.positionals.count {
            throw .unexpectedArgument(given[specification.positionals.count])
        }
        return (values, lists)
    }
}

/// One pass over the arguments: sorts them into options, flags and positionals and remembers
/// the first mistake, but keeps going to find `--help`.
private struct Scan {
    let options: [OptionSpecification]
    let takesDashedWords: Bool
    var optionValues: [String: String] = [:]
    var optionLists: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    var helpRequested = false
    var firstError: UsageError?

    init(options: [OptionSpecification], takesDashedWords: Bool) {
        self.options = options
        self.takesDashedWords = takesDashedWords
    }

    mutating func run(_ arguments: [String]) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positionals += arguments[index...]
                return
            }
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix(while: { $0 != "=" }))
                let inlineValue = body.contains("=") ? String(body.drop(while: { $0 != "=" }).dropFirst()) : nil
                guard let option = options.first(where: { $0.name == name }) else {
                    let suggestion = Suggestion.nearest(to: name, among: options.map(\.name))
                    record(.unknownOption("--" + name, suggestion: suggestion.map { "--" + $0 }))
                    continue
                }
                accept(option, inlineValue: inlineValue, arguments: arguments, index: &index)
            } else if argument.hasPrefix("-"), argument.count > 1, !Self.isNegativeNumber(argument) {
                guard argument.count == 2, let option = options.first(where: { $0.shortName == argument.last })
                else {
                    if takesDashedWords {
                        positionals.append(argument)
                        continue
                    }
                    record(.unknownOption(argument, suggestion: nil))
                    continue
                }
                accept(option, inlineValue: nil, arguments: arguments, index: &index)
            } else {
                positionals.append(argument)
            }
        }
    }

    private mutating func accept(
        _ option: OptionSpecification, inlineValue: String?, arguments: [String], index: inout Int
    ) {
        switch option.kind {
        case .flag:
            if option.name == OptionSpecification.help.name { helpRequested = true }
            if let inlineValue {
                record(.unexpectedValue(flag: option.longForm, value: inlineValue))
            } else if flags.contains(option.name) {
                record(.repeatedOption(option.longForm))
            }
            flags.insert(option.name)
        case .value(let valueName, let validate):
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count, Self.canBeValue(arguments[index]) {
                value = arguments[index]
                index += 1
            } else {
                record(.missingValue(option: option.longForm, valueName: valueName))
                return
            }
            if optionValues[option.name] != nil, !option.isRepeatable {
                record(.repeatedOption(option.longForm))
                return
            }
            optionValues[option.name] = value
            optionLists[option.name, default: []].append(value)
            if let rejection = validate(value) {
                record(.invalidValue(argument: option.longForm, value: value, rejection: rejection))
            }
        }
    }

    private mutating func record(_ error: UsageError) {
        if firstError == nil { firstError = error }
    }

    /// Whether the argument after an option can be its value rather than the next option.
    private static func canBeValue(_ argument: String) -> Bool {
        !argument.hasPrefix("-") || argument == "-" || isNegativeNumber(argument)
    }

    /// `-40`, `-0.5`, `-1s`: a minus sign followed by a digit.
    private static func isNegativeNumber(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument.dropFirst().first?.isASCIIDigit == true
    }
}
