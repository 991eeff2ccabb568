import Testing
import Vocabulary

/// The tag rules: one word, no control characters, 1 to 64 characters, folded to lower case;
/// and how `+tag -tag` words read.
@Suite struct MemoTagTests {
    @Test func aTagIsFoldedToLowerCase() throws {
        #expect(try MemoTag.accepted("Work") == "work")
        #expect(try MemoTag.accepted("Ärger") == "ärger")
        #expect(try MemoTag.accepted("2026-q4") == "2026-q4")
        #expect(try MemoTag.accepted(["Work", "work", "draft"]) == ["work", "draft"], "duplicates dropped, order kept")
    }

    @Test func eachRuleIsNamedWhenATagIsRefused() throws {
        #expect(throws: MemoTag.Problem.empty) { try MemoTag.accepted("") }
        #expect(throws: MemoTag.Problem.whiteSpace("two words")) { try MemoTag.accepted("two words") }
        #expect(throws: MemoTag.Problem.whiteSpace("no\u{A0}break")) { try MemoTag.accepted("no\u{A0}break") }
        #expect(throws: MemoTag.Problem.controlCharacter("bell\u{7}")) { try MemoTag.accepted("bell\u{7}") }
        #expect(throws: MemoTag.Problem.controlCharacter("tab\there")) { try MemoTag.accepted("tab\there") }
        #expect(throws: MemoTag.Problem.controlCharacter("rtl\u{202E}")) { try MemoTag.accepted("rtl\u{202E}") }
        #expect(throws: MemoTag.Problem.controlCharacter("zero\u{200B}width")) { try MemoTag.accepted("zero\u{200B}width") }
        #expect(try MemoTag.accepted("👨‍👩‍👧") == "👨‍👩‍👧", "an emoji sequence's joiners stay")
        let long = String(repeating: "x", count: 65)
        #expect(throws: MemoTag.Problem.tooLong(long, characters: 65)) { try MemoTag.accepted(long) }
        #expect(throws: Never.self) { try MemoTag.accepted(String(repeating: "é", count: 64)) }

        #expect(MemoTag.Problem.empty.description == "a tag cannot be empty")
        #expect(MemoTag.Problem.whiteSpace("a b").description.contains("white space"))
        #expect(MemoTag.Problem.controlCharacter("a\u{7}").description.contains("control character"))
        #expect(!MemoTag.Problem.controlCharacter("a\u{1B}[2J").description.contains("\u{1B}"), "made safe for the terminal")
        #expect(MemoTag.Problem.tooLong(long, characters: 65).description.contains("at most 64"))
    }

    @Test func signedWordsAddAndRemove() throws {
        let change = try MemoTag.change(["+Work", "-draft", "+urgent"])
        #expect(change == MemoTag.Change(added: ["work", "urgent"], removed: ["draft"]))
        #expect(change.applied(to: ["draft", "idea"]) == ["idea", "work", "urgent"])
        #expect(try MemoTag.change(["+a", "-a"]) == MemoTag.Change(removed: ["a"]), "the last word about a tag wins")
        #expect(try MemoTag.change([]).isEmpty)
    }

    @Test func plainWordsAreTheWholeList() throws {
        let change = try MemoTag.change(["Work", "idea"])
        #expect(change.replacement == ["work", "idea"])
        #expect(change.applied(to: ["old"]) == ["work", "idea"])
    }

    @Test func badWordsAreRefused() {
        #expect(throws: MemoTag.ChangeProblem.tag(.empty)) { try MemoTag.change(["+"]) }
        #expect(throws: MemoTag.ChangeProblem.tag(.whiteSpace("a b"))) { try MemoTag.change(["+a b"]) }
        #expect(throws: MemoTag.ChangeProblem.mixed) { try MemoTag.change(["+work", "idea"]) }
    }

    @Test func aStoredLineIsSplitIntoTags() {
        #expect(MemoTag.split("work  draft") == ["work", "draft"])
        #expect(MemoTag.split("") == [])
        #expect(MemoTag.joined(["work", "draft"]) == "work draft")
    }
}
