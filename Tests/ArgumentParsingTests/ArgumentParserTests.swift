import Testing

@testable import ArgumentParsing

/// A small command exercising every kind of declaration.
enum Sample {
    static let rate = Option<Int>(
        name: "rate", shortName: "r", valueName: "HZ", help: "The rate.", defaultDescription: "48000",
        parser: .sampleRate(in: 1_000...768_000))
    static let threshold = Option<Double>(
        name: "threshold", valueName: "DB", help: "The threshold.", parser: .number(in: -160...0, unit: "dB"))
    static let title = Option<String>(name: "title", valueName: "TEXT", help: "The title.", parser: .nonEmptyText)
    static let json = Flag(name: "json", shortName: "j", help: "Print JSON.")
    static let memo = Positional<String>(name: "MEMO", help: "The memo.", parser: .nonEmptyText)
    static let path = Positional<String>(name: "PATH", help: "The path.", isOptional: true, parser: .nonEmptyText)

    static let specification = CommandSpecification(
        name: "sample", abstract: "A sample command.", options: [rate, threshold, title, json],
        positionals: [memo, path])

    static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        switch try ArgumentParser(specification).parse(arguments) {
        case .arguments(let parsed): return parsed
        case .helpRequested: throw .unexpectedArgument("help was requested")
        }
    }

    static func error(_ arguments: [String]) -> UsageError? {
        do throws(UsageError) {
            _ = try parse(arguments)
            return nil
        } catch {
            return error
        }
    }
}

@Suite("Argument parser")
struct ArgumentParserTests {
    @Test func optionValueForms() throws {
        for arguments in [["--rate", "48k", "m"], ["--rate=48k", "m"], ["-r", "48k", "m"], ["m", "--rate", "48k"]] {
            let parsed = try Sample.parse(arguments)
            #expect(try parsed.value(of: Sample.rate) == 48000)
            #expect(parsed.text(of: Sample.rate) == "48k")
            #expect(try parsed.value(of: Sample.memo) == "m")
        }
    }

    @Test func absentValuesAreNil() throws {
        let parsed = try Sample.parse(["m"])
        #expect(try parsed.value(of: Sample.rate) == nil)
        #expect(try parsed.value(of: Sample.path) == nil)
        #expect(!parsed.isSet(Sample.json))
        #expect(!parsed.contains(Sample.json))
    }

    @Test func flags() throws {
        #expect(try Sample.parse(["--json", "m"]).isSet(Sample.json))
        #expect(try Sample.parse(["-j", "m"]).isSet(Sample.json))
        #expect(try Sample.parse(["-j", "m"]).contains(Sample.json))
    }

    @Test func negativeNumbersAreValues() throws {
        #expect(try Sample.parse(["--threshold", "-40", "m"]).value(of: Sample.threshold) == -40)
        #expect(try Sample.parse(["--threshold", "-0.5", "m"]).value(of: Sample.threshold) == -0.5)
    }

    @Test func valuesMayContainEqualsSigns() throws {
        #expect(try Sample.parse(["--title=a=b", "m"]).value(of: Sample.title) == "a=b")
        #expect(try Sample.parse(["--title=--json", "m"]).value(of: Sample.title) == "--json")
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try Sample.parse(["--json", "--", "--rate", "-h"])
        #expect(try parsed.value(of: Sample.memo) == "--rate")
        #expect(try parsed.value(of: Sample.path) == "-h")
        #expect(try parsed.value(of: Sample.rate) == nil)
    }

    @Test func singleDashIsPositional() throws {
        #expect(try Sample.parse(["m", "-"]).value(of: Sample.path) == "-")
    }

    @Test func helpWinsOverMistakes() throws {
        for arguments in [["--help"], ["-h"], ["--rate", "abc", "--help"], ["--frob", "-h", "a", "b", "c"]] {
            guard case .helpRequested = try ArgumentParser(Sample.specification).parse(arguments) else {
                Issue.record("no help for \(arguments)")
                continue
            }
        }
    }

    @Test func firstMistakeInCommandLineOrderIsReported() {
        #expect(Sample.error(["--rate", "abc", "--frob"]) == .invalidValue(
            argument: "--rate", value: "abc", rejection: .notASampleRate(allowed: 1_000...768_000)))
        #expect(Sample.error(["--frob", "--rate", "abc"]) == .unknownOption("--frob", suggestion: nil))
    }

    @Test func errorKinds() {
        #expect(Sample.error(["--rat", "48k", "m"]) == .unknownOption("--rat", suggestion: "--rate"))
        #expect(Sample.error(["--rat=48k", "m"]) == .unknownOption("--rat", suggestion: "--rate"))
        #expect(Sample.error(["-x", "m"]) == .unknownOption("-x", suggestion: nil))
        #expect(Sample.error(["-rj", "m"]) == .unknownOption("-rj", suggestion: nil))
        #expect(Sample.error(["m", "--rate"]) == .missingValue(option: "--rate", valueName: "HZ"))
        #expect(Sample.error(["--title", "--json", "m"]) == .missingValue(option: "--title", valueName: "TEXT"))
        #expect(Sample.error(["--json=yes", "m"]) == .unexpectedValue(flag: "--json", value: "yes"))
        #expect(Sample.error(["--rate", "1k", "--rate=2k", "m"]) == .repeatedOption("--rate"))
        #expect(Sample.error(["--json", "-j", "m"]) == .repeatedOption("--json"))
        #expect(Sample.error(["a", "b", "c"]) == .unexpectedArgument("c"))
        #expect(Sample.error([]) == .missingArgument("MEMO"))
        #expect(Sample.error([""]) == .invalidValue(argument: "MEMO", value: "", rejection: .emptyText))
        #expect(Sample.error(["--threshold", "5", "m"]) == .invalidValue(
            argument: "--threshold", value: "5", rejection: .numberOutOfRange(allowed: -160...0, unit: "dB")))
    }
}
