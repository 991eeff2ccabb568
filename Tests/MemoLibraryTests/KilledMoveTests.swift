import TestSupport
import Foundation
import Testing
@testable import MemoLibrary

/// A delete, restore or edit moves the memo's file inside its index transaction: killed
/// between the move and the commit, the index still names the old place. The next opening
/// finds the file in the other folder and the row follows it — the same memo (id, title),
/// never a "missing" row beside an adopted copy (what a fresh-clone run found after kill -9
/// during `trim`).
@Suite struct KilledMoveTests {
    /// The file moved as a delete moves it; the transaction never committed.
    @Test func aDeleteKilledAfterItsMoveIsADelete() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Killed delete")
        library.close()
        let name = String(memo.path.split(separator: "/").last ?? "")
        try FileManager.default.createDirectory(atPath: fixture.folder + "/.trash", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: memo.path, toPath: fixture.folder + "/.trash/" + name)

        library = try fixture.open()
        defer { library.close() }
        #expect(try library.memos().isEmpty, "no missing row is left in the library")
        let deleted = try library.memos(deleted: true)
        #expect(deleted.map(\.id) == [memo.id] && deleted.first?.title == "Killed delete", "the same memo, in Recently Deleted")
        #expect(deleted.first?.state == .complete && deleted.first?.frames == memo.frames)
        #expect(library.maintenance.adopted.isEmpty && library.maintenance.missing.isEmpty)
        let restored = try library.restore(id: memo.id)
        #expect(restored.path == memo.path && FileManager.default.fileExists(atPath: memo.path), "and it restores")
    }

    /// The file moved back as a restore moves it; the transaction never committed.
    @Test func aRestoreKilledAfterItsMoveIsARestore() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Killed restore")
        let deleted = try library.delete(id: memo.id, at: LibraryFixture.start)
        library.close()
        try FileManager.default.moveItem(atPath: deleted.path, toPath: memo.path)

        library = try fixture.open()
        defer { library.close() }
        #expect(try library.memos().map(\.id) == [memo.id])
        #expect(try library.memos(deleted: true).isEmpty)
        #expect(try library.memo(id: memo.id)?.state == .complete)
    }

    /// A row already marked missing at an earlier opening follows its file too, found by the
    /// id in the file's comment tag although its name changed.
    @Test func aMissingMemoFollowsItsTaggedFileUnderAnotherName() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Wandered")
        library.close()
        let elsewhere = fixture.folder + "/.wandered"
        try FileManager.default.moveItem(atPath: memo.path, toPath: elsewhere)
        library = try fixture.open()
        #expect(try library.memo(id: memo.id)?.state == .missing)
        library.close()
        try FileManager.default.createDirectory(atPath: fixture.folder + "/.trash", withIntermediateDirectories: true)
        let renamed = fixture.folder + "/.trash/other-name." + (memo.path.split(separator: ".").last.map(String.init) ?? "flac")
        try FileManager.default.moveItem(atPath: elsewhere, toPath: renamed)

        library = try fixture.open()
        defer { library.close() }
        #expect(try library.memos().isEmpty)
        #expect(try library.memos(deleted: true).map(\.id) == [memo.id], "by its tag, not as a new memo")
    }

    /// An unrelated file of the same name is not taken for a memo whose file is still there.
    @Test func aFileOfTheSameNameBesideAPresentMemoIsAdopted() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Present")
        library.close()
        let name = String(memo.path.split(separator: "/").last ?? "")
        try FileManager.default.createDirectory(atPath: fixture.folder + "/.trash", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: memo.path, toPath: fixture.folder + "/.trash/" + name)

        library = try fixture.open()
        defer { library.close() }
        #expect(try library.memos().map(\.id) == [memo.id])
        #expect(try library.memos(deleted: true).count == 1 && library.maintenance.adopted.count == 1)
    }
}
