import Testing

@testable import ArgumentParsing

@Suite("Numbers, rates, choices and text")
struct NumberParsingTests {
    @Test func integersInRange() throws {
        let parser = ValueParser<Int>.integer(in: 1...32)
        #expect(try parser.parse("1") == 1)
        #expect(try parser.parse("32") == 32)
        #expect(throws: ValueRejection.wholeNumberOutOfRange(allowed: 1...32)) { try parser.parse("0") }
        #expect(throws: ValueRejection.wholeNumberOutOfRange(allowed: 1...32)) { try parser.parse("33") }
        #expect(throws: ValueRejection.wholeNumberOutOfRange(allowed: 1...32)) {
            try parser.parse("99999999999999999999999")
        }
        for text in ["", "two", "2.5", "2x", "0x10", " 2"] {
            #expect(throws: ValueRejection.notAWholeNumber(allowed: 1...32)) { try parser.parse(text) }
        }
    }

    @Test(
        "sample rates",
        arguments: [
            ("48000", 48000), ("44100", 44100), ("48k", 48000), ("44.1k", 44100), ("22.05k", 22050),
            ("96K", 96000), ("8k", 8000),
        ])
    func sampleRates(text: String, hertz: Int) throws {
        #expect(try ValueParser<Int>.sampleRate(in: 1_000...768_000).parse(text) == hertz)
    }

    @Test func refusedSampleRates() {
        let parser = ValueParser<Int>.sampleRate(in: 1_000...768_000)
        for text in ["abc", "", "44.1", "44.12345k", "48kHz", "-48000", "k", "1e5"] {
            #expect(throws: ValueRejection.notASampleRate(allowed: 1_000...768_000)) { try parser.parse(text) }
        }
        for text in ["999", "1000k", "0"] {
            #expect(throws: ValueRejection.sampleRateOutOfRange(allowed: 1_000...768_000)) {
                try parser.parse(text)
            }
        }
    }

    @Test func decibels() throws {
        let parser = ValueParser<Double>.number(in: -160...0, unit: "dB")
        #expect(try parser.parse("-40") == -40)
        #expect(try parser.parse("-12.5dB") == -12.5)
        #expect(try parser.parse("-3db") == -3)
        #expect(try parser.parse("0") == 0)
        #expect(throws: ValueRejection.numberOutOfRange(allowed: -160...0, unit: "dB")) { try parser.parse("3") }
        for text in ["loud", "nan", "-inf", "", "-1e2", "dB"] {
            #expect(throws: ValueRejection.notANumber(allowed: -160...0, unit: "dB")) { try parser.parse(text) }
        }
    }

    enum Fruit: String, CaseIterable, Sendable { case apple, pear, plum }

    @Test func choices() throws {
        #expect(try ValueParser<Fruit>.choice.parse("pear") == .pear)
        #expect(throws: ValueRejection.notAChoice(choices: ["apple", "pear", "plum"], suggestion: "apple")) {
            try ValueParser<Fruit>.choice.parse("aple")
        }
        #expect(throws: ValueRejection.notAChoice(choices: ["apple", "pear", "plum"], suggestion: nil)) {
            try ValueParser<Fruit>.choice.parse("banana")
        }
        // Spelled in capitals: refused, naming the choice meant.
        #expect(throws: ValueRejection.notAChoice(choices: ["apple", "pear", "plum"], suggestion: "pear")) {
            try ValueParser<Fruit>.choice.parse("PEAR")
        }
    }

    @Test func nonEmptyText() throws {
        #expect(try ValueParser<String>.nonEmptyText.parse(" Standup notes ") == " Standup notes ")
        #expect(throws: ValueRejection.emptyText) { try ValueParser<String>.nonEmptyText.parse("") }
        #expect(throws: ValueRejection.emptyText) { try ValueParser<String>.nonEmptyText.parse(" \t") }
    }

    @Test func suggestions() {
        #expect(Suggestion.nearest(to: "recrod", among: ["record", "meter"]) == "record")
        #expect(Suggestion.nearest(to: "rat", among: ["rate", "title"]) == "rate")
        #expect(Suggestion.nearest(to: "dur", among: ["duration", "delay"]) == "duration")
        #expect(Suggestion.nearest(to: "frobnicate", among: ["record", "meter"]) == nil)
        #expect(Suggestion.nearest(to: "", among: ["record"]) == nil)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("ab", "ba") == 1)
    }
}
