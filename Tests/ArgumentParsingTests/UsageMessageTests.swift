import Testing

@testable import ArgumentParsing

@Suite("Usage error messages")
struct UsageMessageTests {
    @Test(
        "each kind, word for word",
        arguments: [
            (UsageError.unknownCommand("recrod", suggestion: "record"),
             "unknown subcommand 'recrod'; did you mean 'record'?"),
            (.unknownCommand("frobnicate", suggestion: nil), "unknown subcommand 'frobnicate'"),
            (.unknownOption("--rat", suggestion: "--rate"), "unknown option '--rat'; did you mean '--rate'?"),
            (.unknownOption("-x", suggestion: nil), "unknown option '-x'"),
            (.missingValue(option: "--rate", valueName: "HZ"), "--rate needs a value: --rate HZ"),
            (.unexpectedValue(flag: "--json", value: "yes"), "--json takes no value, but was given \"yes\""),
            (.repeatedOption("--rate"), "--rate was given more than once; give it once"),
            (.unexpectedArgument("extra"), "unexpected argument \"extra\""),
            (.missingArgument("MEMO"), "missing MEMO"),
            (.missingCompanion(option: "--vox-min", requirement: "--vox"),
             "--vox-min only works with --vox; add --vox"),
            (.conflictingArguments("MEMO", "--all"), "MEMO and --all cannot be given together; give one of them"),
            (.missingAlternative(["MEMO", "--all"]), "give MEMO or --all"),
            (.missingAlternative(["A", "B", "C"]), "give A, B or C"),
        ])
    func message(error: UsageError, expected: String) {
        #expect(error.message == expected)
    }

    @Test(
        "each value rejection, word for word",
        arguments: [
            (ValueRejection.notAWholeNumber(allowed: 1...32),
             "--channels: \"x\" is not a whole number; use a whole number from 1 to 32"),
            (.wholeNumberOutOfRange(allowed: 1...32),
             "--channels: \"x\" is out of range; use a whole number from 1 to 32"),
            (.notANumber(allowed: -160...0, unit: "dB"),
             "--channels: \"x\" is not a number; use a number from -160 to 0 dB"),
            (.numberOutOfRange(allowed: -0.5...2.5, unit: nil),
             "--channels: \"x\" is out of range; use a number from -0.5 to 2.5"),
            (.notAChoice(choices: ["wav", "flac"], suggestion: "flac"),
             "--channels: \"x\" is not a choice; use one of: wav, flac; did you mean 'flac'?"),
            (.notAChoice(choices: ["wav", "flac"], suggestion: nil),
             "--channels: \"x\" is not a choice; use one of: wav, flac"),
            (.notADuration,
             "--channels: \"x\" is not a duration; use e.g. 90, 1.5s, 250ms, 2m, 1h, 01:30 or 1:02:03"),
            (.negativeDuration, "--channels: \"x\" is negative; use a duration of 0 or more, e.g. 90 or 1.5s"),
            (.durationTooLong(maximum: .seconds(360_000_000)),
             "--channels: \"x\" is too long; the longest allowed is 100000h"),
            (.notASampleRate(allowed: 1000...768_000),
             "--channels: \"x\" is not a sample rate; use a rate in Hz from 1000 to 768000, e.g. 48000, 48k or 44.1k"),
            (.sampleRateOutOfRange(allowed: 1000...768_000),
             "--channels: \"x\" is out of range; use a rate in Hz from 1000 to 768000, e.g. 48000, 48k or 44.1k"),
            (.emptyText, "--channels: \"x\" is empty; give some text"),
            (.custom(problem: "is not a tone", allowed: "use tone:FREQ@DBFS"),
             "--channels: \"x\" is not a tone; use tone:FREQ@DBFS"),
        ])
    func rejection(rejection: ValueRejection, expected: String) {
        #expect(UsageError.invalidValue(argument: "--channels", value: "x", rejection: rejection).message == expected)
    }

    @Test func controlCharactersInValuesAreShownNotSent() {
        let error = UsageError.invalidValue(argument: "--title", value: "\u{1B}[2Jhi", rejection: .emptyText)
        #expect(error.message == "--title: \"␛[2Jhi\" is empty; give some text")
    }
}
