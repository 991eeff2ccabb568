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

    @Test func locationFollowsTheEnvironment() {
        #expect(LibraryLocation.folder(environment: ["VOICEMEMO_HOME": "/v/", "XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/v")
        #expect(LibraryLocation.folder(environment: ["VOICEMEMO_HOME": "", "XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/voicememo")
        #expect(LibraryLocation.folder(environment: ["HOME": "/h"]) == "/h/.local/share/voicememo")
        #expect(LibraryLocation.folder(environment: [:]) == nil)
    }
}
