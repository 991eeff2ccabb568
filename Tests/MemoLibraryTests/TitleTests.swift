import TestSupport
import Foundation
import Vocabulary
import Testing
@testable import MemoLibrary

@Suite struct TitleTests {
    static let hostile = [
        "../../etc/passwd", "a/b\\c", "..", "nul\u{0}inside", "esc \u{1B}[31mred\u{1B}[0m",
        "osc \u{1B}]0;pwned\u{07}", "rtl \u{202E}gnp.exe", "emoji 🎙️👩‍👩‍👧", "中文標題 日本語 한국어",
        "tab\tnew\nline\rend", "c1 \u{9B}31m", String(repeating: "é", count: 500),
    ]

    @Test(arguments: hostile)
    func hostileTitlesRoundTripExactly(title: String) throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library)
        let before = fixture.allPaths()
        try library.rename(id: memo.id, to: title)
        let reopened = try fixture.open()
        #expect(try reopened.memo(id: memo.id)?.title == title)
        #expect(fixture.allPaths() == before, "renaming creates no file anywhere")
        let shown = try #require(try reopened.memo(id: memo.id)).displayTitle
        #expect(!shown.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(!shown.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
    }

    @Test func whiteSpaceAroundATitleIsDroppedWhereverItIsGiven() throws {
        // The app trimmed what was typed, the command line kept it: one rule now, in the library.
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "  Lecture notes \n")
        #expect(memo.title == "Lecture notes")
        #expect(try library.rename(id: memo.id, to: "\tSeminar\u{3000}").title == "Seminar", "ideographic space too")
        #expect(try library.rename(id: memo.id, to: "inner  spaces\tkept").title == "inner  spaces\tkept")
        #expect(Self.problem { try library.rename(id: memo.id, to: " \u{200B} ") } == .whitespaceOnly)
        #expect(try MemoTitle.accepted(" x ") == "x")
        #expect(Self.problem { _ = try MemoTitle.accepted(" " + String(repeating: "x", count: 501) + " ") } == .tooLong(characters: 501))
        #expect(try library.memo(id: memo.id)?.title == "inner  spaces\tkept")
    }

    /// The title problem `body` throws, if any (the rule's own, or the library's error holding it).
    private static func problem(_ body: () throws -> Void) -> MemoLibraryError.TitleProblem? {
        do {
            try body()
            return nil
        } catch let problem as MemoTitle.Problem {
            return problem
        } catch {
            guard case .invalidTitle(let found) = error as? MemoLibraryError else { return nil }
            return found
        }
    }

    @Test func hostileTitleAtRecordingIsNeverAPath() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "../../escape/\u{1B}]0;x\u{07}")
        #expect(memo.path.hasPrefix(fixture.folder + "/2026-11-29_14-03-12_"))
        #expect(fixture.allPaths().allSatisfy { $0.hasPrefix("library") })
    }

    @Test(arguments: [
        ("", MemoLibraryError.TitleProblem.empty), ("   \t\n", .whitespaceOnly),
        (String(repeating: "x", count: 501), .tooLong(characters: 501)),
        (String(repeating: "長", count: 10_000), .tooLong(characters: 10_000)),
    ])
    func badTitlesAreRefused(title: String, problem: MemoLibraryError.TitleProblem) throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "kept")
        #expect {
            try library.rename(id: memo.id, to: title)
        } throws: { error in
            guard case .invalidTitle(let found) = error as? MemoLibraryError else { return false }
            return found == problem
        }
        #expect(try library.memo(id: memo.id)?.title == "kept")
    }

    /// A stream's ICY title becomes a memo's default title (`R` in the app): cut to fit, not refused.
    @Test func textFromElsewhereIsFittedToTheRule() throws {
        let long = String(repeating: "Song la ", count: 600)
        let fitted = try #require(MemoTitle.fitted(long))
        #expect(fitted.count == MemoTitle.maximumLength)
        #expect(fitted.hasSuffix("…") && long.hasPrefix(fitted.dropLast()), "its start, then an ellipsis: \(fitted.suffix(8))")
        #expect(try MemoTitle.accepted(fitted) == fitted)
        #expect(MemoTitle.fitted("  Song 2 \n") == "Song 2")
        #expect(MemoTitle.fitted(String(repeating: "é", count: 500)) == String(repeating: "é", count: 500))
        #expect(MemoTitle.fitted(" \u{200B} ") == nil)
        #expect(MemoTitle.fitted("") == nil)
    }

    @Test func fiveHundredCharactersAreAllowed() throws {
        try MemoTitle.validate(String(repeating: "👍", count: 500))
    }

    @Test func defaultTitlesAreToTheSecondForEveryKindOfRecording() {
        let date = LibraryFixture.start
        #expect(MemoTitle.defaultTitle(for: date, timeZone: LibraryFixture.utc, prefix: "Kitchen") == "Kitchen 2026-11-29 14:03:12")
        #expect(MemoTitle.defaultTitle(for: date.addingTimeInterval(1), timeZone: LibraryFixture.utc)
            != MemoTitle.defaultTitle(for: date, timeZone: LibraryFixture.utc), "a second apart, two titles")
        let tokyo = TimeZone(secondsFromGMT: 9 * 3600)!
        #expect(MemoTitle.defaultTitle(for: date, timeZone: tokyo) == "Memo 2026-11-29 23:03:12")
    }

    @Test func defaultTitleAndFileName() throws {
        #expect(MemoTitle.defaultTitle(for: LibraryFixture.start, timeZone: LibraryFixture.utc) == "Memo 2026-11-29 14:03:12")
        let name = MemoFileName.make(for: LibraryFixture.start, fileExtension: "flac", timeZone: LibraryFixture.utc)
        #expect(name.hasPrefix("2026-11-29_14-03-12_") && name.hasSuffix(".flac") && name.count == 31)
        #expect(MemoFileName.date(in: name, timeZone: LibraryFixture.utc) == LibraryFixture.start)
    }

    @Test func escapedShowsControlPictures() {
        #expect(TerminalText.safe("a\u{1B}[1mb\u{0}\u{7F}") == "a␛[1mb␀␡")
        #expect(TerminalText.safe("x\u{202E}y") == "x\\u{202E}y")
    }
}
