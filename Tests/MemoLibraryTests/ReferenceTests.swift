import TestSupport
import Foundation
import Testing
@testable import MemoLibrary

@Suite struct ReferenceTests {
    @Test func idExactTitleAndUniquePrefix() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let idea = try fixture.record(into: library, title: "Idea")
        let idea2 = try fixture.record(into: library, title: "Idea for the parser")
        let standup = try fixture.record(into: library, title: "Standup notes")
        #expect(try library.memo(matching: String(standup.id)).id == standup.id)
        #expect(try library.memo(matching: "Idea").id == idea.id, "an exact title wins over prefixes")
        #expect(try library.memo(matching: "Idea f").id == idea2.id)
        #expect(try library.memo(matching: "Stand").id == standup.id)
    }

    @Test func ambiguousPrefixListsTheCandidates() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        try fixture.record(into: library, title: "Idea one")
        try fixture.record(into: library, title: "Idea two")
        do {
            _ = try library.memo(matching: "Idea")
            Issue.record("expected ambiguity")
        } catch {
            guard case .ambiguous(_, let candidates) = error else { throw error }
            #expect(Set(candidates.map(\.title)) == ["Idea one", "Idea two"])
            #expect(error.isUsageError)
            #expect(error.description.contains("Idea one") && error.description.contains("Idea two"))
        }
    }

    @Test func unknownReferenceIsNotFound() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        try fixture.record(into: library, title: "Something")
        #expect(throws: MemoLibraryError.self) { try library.memo(matching: "Nothing") }
        #expect(throws: MemoLibraryError.self) { try library.memo(matching: "999") }
        #expect(throws: MemoLibraryError.self) { try library.memo(matching: "") }
    }

    @Test func allDigitsIsOnlyEverAnIdAndTitlePrefixReachesDigitTitles() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let plan = try fixture.record(into: library, title: "2 weeks plan")
        let three = try fixture.record(into: library, title: "3")
        #expect(try library.memo(matching: String(plan.id)).id == plan.id)
        #expect(try library.memo(matching: "title:2").id == plan.id)
        #expect(try library.memo(matching: "title:3").id == three.id)
        #expect(throws: MemoLibraryError.self, "an empty title names nothing") { try library.memo(matching: "title:") }
        for digits in ["3", "99", "0003", "99999999999999999999999"] where Int64(digits) != three.id {
            do {
                let found = try library.memo(matching: digits)
                Issue.record("\(digits) found memo \(found.id) (\(found.title))")
            } catch {
                guard case .noMemoWithID(let text, false, false) = error else { throw error }
                #expect(text == digits)
                #expect(error.description.hasPrefix("no memo with id \(digits)"))
                #expect(!error.isUsageError)
            }
        }
        try library.delete(id: plan.id, at: Date())
        do {
            _ = try library.memo(matching: String(plan.id))
            Issue.record("a deleted memo's id reached it outside Recently Deleted")
        } catch {
            guard case .noMemoWithID(_, false, true) = error else { throw error }
            #expect(error.description.contains("Recently Deleted"))
        }
        #expect(try library.memo(matching: String(plan.id), deleted: true).id == plan.id)
    }

    @Test func indexFailuresNeverShowSQLitesWords() {
        let errors = [
            SQLiteError(code: 2067, message: "UNIQUE constraint failed: memos.path"),
            SQLiteError(code: 13, message: "database or disk is full"), SQLiteError(code: 10, message: "disk I/O error"),
            SQLiteError(code: 11, message: "database disk image is malformed"), SQLiteError(code: 1, message: "no such column: x"),
        ]
        for error in errors {
            let text = MemoLibraryError.index(error).description
            #expect(!text.contains(error.message) && !text.contains("memos.") && !text.contains("SQLite error"), "\(text)")
        }
    }

    @Test func referenceParsing() {
        #expect(MemoReference("12") == .id(digits: "12"))
        #expect(MemoReference("012") == .id(digits: "012"))
        #expect(MemoReference("12a") == .title("12a"))
        #expect(MemoReference("+12") == .title("+12"))
        #expect(MemoReference("١٢") == .title("١٢"), "only ASCII digits are an id")
        #expect(MemoReference("title:12") == .title("12"))
        #expect(MemoReference("title:title:x") == .title("title:x"))
        #expect(MemoReference("") == .title(""))
    }

    @Test func locationFollowsTheEnvironment() {
        #expect(LibraryLocation.folder(environment: ["VOICEMEMO_HOME": "/v/", "XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/v")
        #expect(LibraryLocation.folder(environment: ["VOICEMEMO_HOME": "", "XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/voicememo")
        #expect(LibraryLocation.folder(environment: ["HOME": "/h"]) == "/h/.local/share/voicememo")
        #expect(LibraryLocation.folder(environment: [:]) == nil)
    }
}
