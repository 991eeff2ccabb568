import TestSupport
import Foundation
import SoundFiles
import Testing
@testable import MemoLibrary

@Suite struct IndexRepairTests {
    private func indexPath(_ fixture: LibraryFixture) -> String { fixture.folder + "/index.sqlite3" }

    private func removeIndex(_ fixture: LibraryFixture) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: indexPath(fixture) + suffix)
        }
    }

    @Test func deletedIndexIsRebuiltWithTitlesAndIdsFromTags() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let a = try fixture.record(into: library, title: "First 中文", format: .flac)
        let b = try fixture.record(into: library, title: "Second", format: .wav)
        let c = try fixture.record(into: library, title: "Third", format: .ogg)
        try library.delete(id: c.id, at: LibraryFixture.start)
        library.close()
        removeIndex(fixture)
        library = try fixture.open()
        #expect(library.maintenance.rebuiltIndex)
        let memos = try library.memos()
        #expect(Set(memos.map(\.title)) == ["First 中文", "Second"])
        #expect(try library.memo(id: a.id)?.title == "First 中文", "ids come back from the comment tag")
        #expect(try library.memo(id: b.id)?.frames == 12_000)
        #expect(try library.memo(id: b.id)?.created == LibraryFixture.start)
        #expect(try library.memos(deleted: true).map(\.title) == ["Third"], "Recently Deleted is rebuilt too")
    }

    @Test(arguments: ["garbage", "truncated", "foreign"])
    func damagedIndexIsKeptAsideAndRebuilt(damage: String) throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        try fixture.record(into: library, title: "Survivor")
        library.close()
        let path = indexPath(fixture)
        switch damage {
        case "garbage":
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        case "truncated":
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            try data.prefix(100).write(to: URL(fileURLWithPath: path))
        default:
            removeIndex(fixture)
            let other = Process()
            other.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            other.arguments = [path, "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('mine');"]
            try other.run()
            other.waitUntilExit()
        }
        library = try fixture.open()
        let aside = try #require(library.maintenance.setAsideIndex)
        #expect(FileManager.default.fileExists(atPath: aside), "the damaged index is kept")
        #expect(try library.memos().map(\.title) == ["Survivor"])
        #expect(try library.integrityCheck() == "ok")
    }

    @Test func droppedWAVIsAdoptedAndDeletedFileIsMissing() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Will vanish")
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 1)
        try LibraryFixture.writeTone(
            to: fixture.folder + "/interview.wav", settings: settings, metadata: SoundFileMetadata(), seconds: 0.5)
        try LibraryFixture.writeTone(
            to: fixture.folder + "/tagged.wav", settings: settings, metadata: SoundFileMetadata(title: "From tags"), seconds: 0.1)
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: fixture.folder + "/broken.flac"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: fixture.folder + "/README.txt"))
        try FileManager.default.removeItem(atPath: memo.path)
        library.close()

        library = try fixture.open()
        let byTitle = Dictionary(try library.memos().map { ($0.title, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byTitle["interview"]?.state == .complete)
        #expect(byTitle["interview"]?.frames == 24_000)
        #expect(byTitle["From tags"]?.state == .complete)
        #expect(byTitle["broken"]?.state == .damaged)
        #expect(byTitle["README"] == nil, "only audio extensions are adopted")
        #expect(byTitle["Will vanish"]?.state == .missing, "never silently dropped")
        #expect(library.maintenance.adopted.count == 3)
        #expect(library.maintenance.missing == [memo.id])

        // The file comes back: the memo is whole again.
        try LibraryFixture.writeTone(to: memo.path, settings: settings, metadata: SoundFileMetadata(), seconds: 0.25)
        library.close()
        library = try fixture.open()
        #expect(try library.memo(id: memo.id)?.state == .complete)
        #expect(try library.memos().count == 4, "nothing adopted twice")
    }

}
