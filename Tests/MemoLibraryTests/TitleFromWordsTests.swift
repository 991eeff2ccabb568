import TestSupport
import Foundation
import SoundFiles
import Testing
@testable import MemoLibrary

/// `titleFromWords`: a memo still at its default title gets one from its transcript's first
/// words, in the index and in the file, so a rebuilt index keeps it; any other title stays.
@Suite struct TitleFromWordsTests {
    static func transcript(_ text: String) -> Transcript {
        let words = text.split(separator: " ").enumerated().map { TranscriptWord(word: String($1), start: Double($0), end: Double($0) + 0.5) }
        return Transcript(words: words, model: "test", frames: 12000)
    }

    @Test func aDefaultTitledMemoIsTitledFromItsWordsAndARebuildKeepsIt() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, format: .flac)
        #expect(memo.title == "Memo 2026-11-29 14:03:12")
        #expect(memo.hasDefaultTitle)
        let change = try library.titleFromWords(of: Self.transcript("um call the plumber about the leak tomorrow"), forMemo: memo.id)
        #expect(change == TitleFromWords(memoID: memo.id, previousTitle: "Memo 2026-11-29 14:03:12", title: "Call the plumber about the leak"))
        #expect(try library.memo(id: memo.id)?.title == "Call the plumber about the leak")
        #expect(try SoundFileReader(path: memo.path).metadata.title == "Call the plumber about the leak", "in the file's tags")
        library.close()
        for name in ["index.sqlite3", "index.sqlite3-wal", "index.sqlite3-shm"] {
            try? FileManager.default.removeItem(atPath: fixture.folder + "/" + name)
        }
        library = try fixture.open()
        #expect(try library.memo(id: memo.id)?.title == "Call the plumber about the leak", "the rebuilt index reads it from the file")
    }

    @Test func aTitleAPersonGaveIsKept() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let named = try fixture.record(into: library, title: "Standup")
        #expect(try library.titleFromWords(of: Self.transcript("hello there"), forMemo: named.id) == nil)
        #expect(try library.memo(id: named.id)?.title == "Standup")

        let renamed = try fixture.record(into: library)
        try library.rename(id: renamed.id, to: "Memo about the roof")
        #expect(try library.titleFromWords(of: Self.transcript("hello there"), forMemo: renamed.id) == nil)
        #expect(try library.memo(id: renamed.id)?.title == "Memo about the roof")

        // A default-looking title of another day is not this memo's default: someone typed it.
        let typed = try fixture.record(into: library)
        try library.rename(id: typed.id, to: "Memo 2020-01-01 09:00:00")
        #expect(try library.titleFromWords(of: Self.transcript("hello there"), forMemo: typed.id) == nil)
        // A voice take titled with --title's prefix keeps it too.
        let take = try fixture.record(into: library, title: "Standup 2026-11-29 14:03:12")
        #expect(try library.titleFromWords(of: Self.transcript("hello there"), forMemo: take.id) == nil)
    }

    @Test func fillersOnlyKeepTheDefault() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library)
        #expect(try library.titleFromWords(of: Self.transcript("um uh hmm"), forMemo: memo.id) == nil)
        #expect(try library.titleFromWords(of: Self.transcript(""), forMemo: memo.id) == nil)
        #expect(try library.memo(id: memo.id)?.title == memo.title)
    }
}
