import ArgumentParsing
import Testing

/// A repeatable option keeps each value; a command that takes dashed words (`tag MEMO -draft`)
/// reads `-draft` as a word; a positional that takes the rest keeps each argument as given.
@Suite struct RepeatedWordsTests {
    static let tag = Option<String>(name: "tag", valueName: "TAG", help: "A tag.", isRepeatable: true, parser: .nonEmptyText)
    static let once = Option<String>(name: "once", valueName: "X", help: "Once.", parser: .nonEmptyText)
    static let json = Flag(name: "json", shortName: "j", help: "JSON.")
    static let words = Positional<String>(
        name: "WORDS", help: "Words.", isOptional: true, takesTheRest: true, parser: ValueParser { text throws(ValueRejection) in text })

    static func parse(_ arguments: [String], dashedWords: Bool = false) throws(UsageError) -> ParsedArguments? {
        let specification = CommandSpecification(
            name: "tag", abstract: "Tags.", options: [tag, once, json], positionals: [words], takesDashedWords: dashedWords)
        switch try ArgumentParser(specification).parse(arguments) {
        case .arguments(let parsed): return parsed
        case .helpRequested: return nil
        }
    }

    @Test func aRepeatableOptionKeepsEveryValueInOrder() throws {
        #expect(try Self.parse(["--tag", "work", "--tag=idea"])?.values(of: Self.tag) == ["work", "idea"])
        #expect(try Self.parse([])?.values(of: Self.tag) == [])
        #expect(throws: UsageError.repeatedOption("--once")) { try Self.parse(["--once", "a", "--once", "b"]) }
    }

    @Test func dashedWordsAreWordsOnlyWhereTheCommandSaysSo() throws {
        let parsed = try Self.parse(["+work", "-draft", "-d", "-j"], dashedWords: true)
        #expect(parsed?.words(of: Self.words) == ["+work", "-draft", "-d"])
        #expect(parsed?.isSet(Self.json) == true)
        #expect(throws: UsageError.unknownOption("-draft", suggestion: nil)) { try Self.parse(["-draft"]) }
        #expect(throws: UsageError.self) { try Self.parse(["--draft"], dashedWords: true) }
    }

    @Test func eachWordIsKeptAsGiven() throws {
        let parsed = try Self.parse(["+two words", "x"])
        #expect(parsed?.words(of: Self.words) == ["+two words", "x"])
        #expect(try parsed?.value(of: Self.words) == "+two words x")
    }
}
