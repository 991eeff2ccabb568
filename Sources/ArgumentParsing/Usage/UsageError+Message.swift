import Vocabulary

extension UsageError {
    /// The one line a person reads, without the program name or the hint to run `--help`.
    ///
    /// This is the only place where usage errors and value rejections become words.
    public var message: String {
        switch self {
        case .unknownCommand(let name, let suggestion):
            "unknown subcommand \(Self.quotedName(name))" + Self.didYouMean(suggestion)
        case .unknownOption(let option, let suggestion):
            "unknown option \(Self.quotedName(option))" + Self.didYouMean(suggestion)
        case .missingValue(let option, let valueName):
            "\(option) needs a value: \(option) \(valueName)"
        case .unexpectedValue(let flag, let value):
            "\(flag) takes no value, but was given \(Self.quoted(value))"
        case .invalidValue(let argument, let value, let rejection):
            "\(argument): \(Self.quoted(value)) \(Self.words(for: rejection))"
        case .repeatedOption(let option):
            "\(option) was given more than once; give it once"
        case .unexpectedArgument(let argument):
            "unexpected argument \(Self.quoted(argument))"
        case .missingArgument(let name):
            "missing \(name)"
        case .missingCompanion(let option, let requirement):
            "\(option) only works with \(requirement); add \(requirement)"
        case .conflictingArguments(let first, let second):
            "\(first) and \(second) cannot be given together; give one of them"
        case .missingAlternative(let alternatives):
            "give " + Self.list(alternatives, conjunction: "or")
        }
    }

    /// "is not a whole number; use a whole number from 1 to 32" and the like.
    private static func words(for rejection: ValueRejection) -> String {
        switch rejection {
        case .notAWholeNumber(let allowed):
            "is not a whole number; use \(wholeNumbers(allowed))"
        case .wholeNumberOutOfRange(let allowed):
            "is out of range; use \(wholeNumbers(allowed))"
        case .notANumber(let allowed, let unit):
            "is not a number; use \(numbers(allowed, unit: unit))"
        case .numberOutOfRange(let allowed, let unit):
            "is out of range; use \(numbers(allowed, unit: unit))"
        case .notAChoice(let choices, let suggestion):
            "is not a choice; use one of: \(choices.joined(separator: ", "))"
                + didYouMean(suggestion)
        case .notADuration:
            "is not a duration; use e.g. 90, 1.5s, 250ms, 2m, 1h, 01:30 or 1:02:03"
        case .negativeDuration:
            "is negative; use a duration of 0 or more, e.g. 90 or 1.5s"
        case .durationTooLong(let maximum):
            "is too long; the longest allowed is \(maximum.components.seconds / 3600)h"
        case .notASampleRate(let allowed):
            "is not a sample rate; use \(sampleRates(allowed))"
        case .sampleRateOutOfRange(let allowed):
            "is out of range; use \(sampleRates(allowed))"
        case .emptyText:
            "is empty; give some text"
        case .custom(let problem, let allowed):
            "\(problem); \(allowed)"
        }
    }

    private static func wholeNumbers(_ range: ClosedRange<Int>) -> String {
        "a whole number from \(range.lowerBound) to \(range.upperBound)"
    }

    private static func numbers(_ range: ClosedRange<Double>, unit: String?) -> String {
        let suffix = unit.map { " " + $0 } ?? ""
        return "a number from \(plain(range.lowerBound)) to \(plain(range.upperBound))\(suffix)"
    }

    private static func sampleRates(_ range: ClosedRange<Int>) -> String {
        "a rate in Hz from \(range.lowerBound) to \(range.upperBound), e.g. 48000, 48k or 44.1k"
    }

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean \(quotedName($0))?" } ?? ""
    }

    private static func list(_ items: [String], conjunction: String) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    /// `-40.0` as `-40`, `0.5` as `0.5`.
    private static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// A name between single quotes, made safe to print.
    private static func quotedName(_ name: String) -> String {
        "'" + TerminalText.safe(name) + "'"
    }

    /// A value between double quotes, made safe to print.
    private static func quoted(_ value: String) -> String {
        "\"" + TerminalText.safe(value) + "\""
    }
}
