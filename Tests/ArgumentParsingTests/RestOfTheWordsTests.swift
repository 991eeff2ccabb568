import Testing

@testable import ArgumentParsing

/// A last positional that takes the rest: `search budget meeting` reads as one query.
@Suite struct RestOfTheWordsTests {
    static let words = Positional<String>(name: "WORDS", help: "The words.", takesTheRest: true, parser: .nonEmptyText)
    static let json = Flag(name: "json", help: "Print JSON.")
    static let specification = CommandSpecification(
        name: "search", abstract: "Find.", options: [json], positionals: [words])

    static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments? {
        switch try ArgumentParser(specification).parse(arguments) {
        case .arguments(let parsed): return parsed
        case .helpRequested: return nil
        }
    }

    @Test func theWordsLeftAreJoinedWithSpaces() throws {
        #expect(try Self.parse(["budget", "meeting"])?.value(of: Self.words) == "budget meeting")
        #expect(try Self.parse(["budget", "--json", "meeting"])?.value(of: Self.words) == "budget meeting")
        #expect(try Self.parse(["budget meeting"])?.value(of: Self.words) == "budget meeting")
        #expect(try Self.parse(["--", "--json", "x"])?.value(of: Self.words) == "--json x")
    }

    @Test func noWordsIsStillMissing() {
        #expect(throws: UsageError.missingArgument("WORDS")) { try Self.parse(["--json"]) }
    }

    @Test func theUsageLineSaysItTakesMore() {
        #expect(HelpFormatter.usage(for: Self.specification, commandPath: "voicememo search") == "voicememo search [OPTIONS] WORDS...")
    }

    /// Another tool's name for a choice, or its spelling in capitals, suggests the choice meant.
    @Test func otherNamesSuggestTheChoiceMeant() {
        let parser = ValueParser<String>.oneOf(["wav", "mp3", "m4a"], otherNames: ["mp4": "m4a"])
        #expect(throws: ValueRejection.notAChoice(choices: ["wav", "mp3", "m4a"], suggestion: "m4a")) { try parser.parse("mp4") }
        #expect(throws: ValueRejection.notAChoice(choices: ["wav", "mp3", "m4a"], suggestion: "mp3")) { try parser.parse("MP3") }
    }
}
