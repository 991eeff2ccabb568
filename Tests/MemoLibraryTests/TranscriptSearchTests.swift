import TestSupport
import Foundation
import Vocabulary
import SoundFiles
import Testing
@testable import MemoLibrary

@Suite struct TranscriptSearchTests {
    private static func words(_ text: String, from start: Double = 0.5, step: Double = 0.4) -> [TranscriptWord] {
        text.split(separator: " ").enumerated().map { index, word in
            TranscriptWord(word: String(word), start: start + Double(index) * step, end: start + Double(index) * step + 0.3)
        }
    }

    @Test func findsTheWordsOfTwoMemosWithTheirTimes() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let first = try fixture.record(into: library, title: "Dashwood")
        let second = try fixture.record(into: library, title: "Young man")
        let third = try fixture.record(into: library, title: "Untranscribed")
        try library.storeTranscript(
            Transcript(words: Self.words("and mister john dashwood had then leisure to consider"), model: "m", frames: first.frames),
            forMemo: first.id, at: LibraryFixture.start)
        try library.storeTranscript(
            Transcript(words: Self.words("he was not an ill disposed young man", from: 1), model: "m", frames: second.frames),
            forMemo: second.id, at: LibraryFixture.start)

        let dashwood = try library.searchTranscripts("Dashwood")
        #expect(dashwood.map(\.memo.id) == [first.id])
        #expect(abs((dashwood.first?.time ?? 0) - (0.5 + 3 * 0.4)) < 1e-9)
        #expect(dashwood.first?.snippet == "and mister john dashwood had then leisure to consider")

        // Several words: all must be there; the time is the phrase's first word.
        let youngMan = try library.searchTranscripts("young, MAN")
        #expect(youngMan.map(\.memo.id) == [second.id])
        #expect(abs((youngMan.first?.time ?? 0) - (1 + 6 * 0.4)) < 1e-9)
        #expect(try library.searchTranscripts("young dashwood").isEmpty)
        // Words in both memos find both.
        #expect(Set(try library.searchTranscripts("an").map(\.memo.id)) == [second.id])
        #expect(Set(try library.searchTranscripts("had").map(\.memo.id)) == [first.id])
        // FTS syntax in the query is taken as words, never as operators.
        #expect(try library.searchTranscripts("NOT dashwood").isEmpty)
        #expect(try library.searchTranscripts("dash*").isEmpty)
        #expect(try library.searchTranscripts("\"").isEmpty)

        let states = try library.transcriptStates()
        #expect(states[first.id] == .complete && states[second.id] == .complete && states[third.id] == nil)
        #expect(try library.memosToTranscribe().map(\.id) == [third.id])
        let stored = try #require(try library.transcript(of: first))
        #expect(stored.transcript.words.count == 9 && stored.state == .complete)
    }

    /// The app's `/` filter searches as it is typed: the last word may be the start of one.
    @Test func theLastWordCanBeAPrefix() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Dashwood")
        try library.storeTranscript(
            Transcript(words: Self.words("and mister john dashwood had then leisure to consider"), model: "m", frames: memo.frames),
            forMemo: memo.id, at: LibraryFixture.start)
        #expect(try library.searchTranscripts("leis").isEmpty, "whole words unless asked")
        let typed = try library.searchTranscripts("leis", lastWordIsPrefix: true)
        #expect(typed.map(\.memo.id) == [memo.id])
        #expect(abs((typed.first?.time ?? 0) - (0.5 + 6 * 0.4)) < 1e-9, "the time of “leisure”")
        // Earlier words stay whole; the phrase's first word gives the time.
        let phrase = try library.searchTranscripts("then lei", lastWordIsPrefix: true)
        #expect(abs((phrase.first?.time ?? 0) - (0.5 + 5 * 0.4)) < 1e-9)
        #expect(try library.searchTranscripts("the lei", lastWordIsPrefix: true).isEmpty, "“the” is not “then”")
        // A quote or a star in what is typed is still a word, not syntax.
        #expect(try library.searchTranscripts("dash\"", lastWordIsPrefix: true).map(\.memo.id) == [memo.id])
        #expect(try library.searchTranscripts("*", lastWordIsPrefix: true).isEmpty)
    }

    @Test func deletedMemosAreNotFoundAndPurgingForgetsTheTranscript() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Gone")
        try library.storeTranscript(
            Transcript(words: Self.words("leisure to consider"), model: "m", frames: memo.frames), forMemo: memo.id,
            at: LibraryFixture.start)
        try library.delete(id: memo.id, at: LibraryFixture.start)
        #expect(try library.searchTranscripts("leisure").isEmpty)
        try library.restore(id: memo.id)
        #expect(try library.searchTranscripts("leisure").count == 1)
        try library.delete(id: memo.id, at: LibraryFixture.start)
        try library.purge(id: memo.id)
        let left = try library.index.database.query(
            "SELECT (SELECT count(*) FROM transcripts) + (SELECT count(*) FROM transcript_words) + (SELECT count(*) FROM transcript_search)")
        #expect(left.first?.integer(0) == 0)
        // A memo that is gone gets no transcript.
        #expect(throws: MemoLibraryError.self) {
            try library.storeTranscript(Transcript(words: [], model: "m", frames: 0), forMemo: memo.id, at: LibraryFixture.start)
        }
    }

    @Test func staleAndFailedStates() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Changed")
        let other = try fixture.record(into: library, title: "Broken")
        try library.storeTranscript(
            Transcript(words: Self.words("hello"), model: "m", frames: memo.frames + 1), forMemo: memo.id, at: LibraryFixture.start)
        try library.storeTranscriptionFailure(forMemo: other.id, problem: "no audio", model: "m", frames: other.frames, at: LibraryFixture.start)
        let states = try library.transcriptStates()
        #expect(states[memo.id] == .stale && states[other.id] == .failed)
        #expect(try library.transcript(of: other)?.problem == "no audio")
        #expect(try library.memosToTranscribe().map(\.id) == [memo.id])
        #expect(try library.index.database.query("PRAGMA user_version").first?.integer(0) == IndexSchema.currentVersion)
    }

    /// A version-2 index gains the transcript tables; read as it is (read-only), it has no transcripts.
    @Test func versionTwoIndexIsMigrated() throws {
        let fixture = try LibraryFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder, withIntermediateDirectories: true)
        let database = try SQLiteDatabase(path: fixture.folder + "/" + MemoIndex.fileName, mode: .readWriteCreate)
        try database.execute(IndexSchema.migrations[0])
        try database.execute(IndexSchema.migrations[1])
        try database.execute("PRAGMA user_version = 2")
        let index = MemoIndex(database: database, folder: fixture.folder)
        #expect(try !index.hasTranscriptTables())
        database.close()

        let library = try fixture.open()
        #expect(try library.index.hasTranscriptTables())
        let memo = try fixture.record(into: library, title: "After")
        try library.storeTranscript(
            Transcript(words: Self.words("hello there"), model: "m", frames: memo.frames), forMemo: memo.id, at: LibraryFixture.start)
        #expect(try library.searchTranscripts("there").first?.time == 0.9)
        #expect(try library.integrityCheck() == "ok")
    }

    @Test func tokensAreWhatTheFullTextIndexSees() {
        #expect(TranscriptTokens.tokens(of: "I'm  John-Dashwood, OK?") == ["i", "m", "john", "dashwood", "ok"])
        #expect(TranscriptTokens.matchExpression(["a\"b", "c"]) == "\"a\"\"b\" \"c\"")
        let words = ["i'm", "here", "i", "m", "x"].map { TranscriptWord(word: $0, start: 0, end: 0) }
        #expect(MemoLibrary.firstMatch(of: ["i", "m"], in: words) == 0)
        #expect(MemoLibrary.firstMatch(of: ["x"], in: words) == 4)
    }
}
