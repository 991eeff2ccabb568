import Testing
import Vocabulary

/// `MemoTitle.fromWords`: the title a transcript's first words give a memo still at its default title.
@Suite struct MemoTitleFromWordsTests {
    @Test func theFirstSixWordsCapitalised() {
        let words = "buy milk and eggs on the way home tonight".split(separator: " ").map(String.init)
        #expect(MemoTitle.fromWords(words) == "Buy milk and eggs on the")
        #expect(MemoTitle.fromWords(["go", "forward", "ten", "meters"]) == "Go forward ten meters")
    }

    @Test func fillersAndPunctuationAloneAreLeftOut() {
        #expect(MemoTitle.fromWords(["um", "uh", "call", "Erm", "the", "dentist", "."]) == "Call the dentist")
        #expect(MemoTitle.fromWords(["Hmm,", "remember", "this,"]) == "Remember this", "a trailing comma is dropped")
        #expect(MemoTitle.fromWords(["i", "think", "i'm", "late"]) == "I think I'm late")
    }

    @Test func fortyCharactersAtMostEndingAtAWholeWord() {
        let words = ["internationalisation", "considerations", "everywhere", "now"]
        let title = MemoTitle.fromWords(words)
        #expect(title == "Internationalisation considerations", "the third word would pass 40 characters")
        #expect((title?.count ?? 99) <= MemoTitle.charactersFromTranscript)
    }

    @Test func aFirstWordLongerThanFortyCharactersIsCut() {
        let long = String(repeating: "a", count: 60)
        let title = MemoTitle.fromWords([long, "b"])
        #expect(title == "A" + String(repeating: "a", count: 38) + "…")
        #expect(title?.count == 40)
    }

    @Test func nothingToSayKeepsTheDefault() {
        #expect(MemoTitle.fromWords([]) == nil)
        #expect(MemoTitle.fromWords(["um", "uh", "hmm", "..."]) == nil)
        #expect(MemoTitle.fromWords(["\u{7}", " ", "\u{200B}"]) == nil)
    }

    @Test func controlCharactersAreRemoved() {
        #expect(MemoTitle.fromWords(["hel\u{1B}[31mlo", "wor\u{0}ld"]) == "Hel[31mlo world")
        #expect(MemoTitle.fromWords(["two\nlines"]) == "Two lines", "a line break inside an entry splits it")
    }
}
