import TestSupport
import Foundation
import Glibc
import SoundFiles
import Testing
@testable import MemoLibrary

/// What a library that stays open (the app's) learns about changes other
/// processes make: commits to the index, the index replaced, the folder deleted.
@Suite struct OutsideChangeTests {
    @Test func theChangeCounterMovesForAnotherConnectionsCommitOnly() throws {
        let fixture = try LibraryFixture()
        let app = try fixture.open()
        let memo = try fixture.record(into: app, title: "Third")
        let start = try app.changeCounter()
        try app.rename(id: memo.id, to: "Own rename")
        #expect(try app.changeCounter() == start, "its own commit does not count")
        let other = try fixture.open()
        try other.rename(id: memo.id, to: "Third renamed outside")
        other.close()
        #expect(try app.changeCounter() != start, "another connection's commit does")
        #expect(try app.memo(id: memo.id)?.title == "Third renamed outside")
    }

    @Test func aConditionalRenameKeepsATitleGivenElsewhere() throws {
        let fixture = try LibraryFixture()
        let app = try fixture.open()
        let memo = try fixture.record(into: app, title: "Third")
        try app.rename(id: memo.id, to: "ThirdX")
        let other = try fixture.open()
        try other.rename(id: memo.id, to: "Third renamed outside")
        other.close()
        #expect {
            try app.rename(id: memo.id, to: "Third", ifTitleIs: "ThirdX")
        } throws: { error in
            guard case MemoLibraryError.titleChangedElsewhere(let now, let expected)? = error as? MemoLibraryError else { return false }
            return now.title == "Third renamed outside" && expected == "ThirdX"
        }
        #expect(try app.memo(id: memo.id)?.title == "Third renamed outside")
        let tags = try SoundFileReader(path: memo.path).metadata
        #expect(tags.title == "Third renamed outside", "the file keeps the outside title too")
        #expect(try app.rename(id: memo.id, to: "Undone", ifTitleIs: "Third renamed outside").title == "Undone")
    }

    @Test func aReplacedIndexAndADeletedFolderAreSeen() throws {
        let fixture = try LibraryFixture()
        let app = try fixture.open()
        _ = try fixture.record(into: app, title: "One")
        #expect(app.onDisk() == .asOpened)
        // What `voicememo list` does with a damaged index: moved aside, a new one built.
        let index = fixture.folder + "/index.sqlite3"
        try FileManager.default.moveItem(atPath: index, toPath: index + ".corrupt-20261201-120000")
        #expect(app.onDisk() == .indexReplaced, "no index at the path")
        let rebuilt = try fixture.open()
        #expect(try rebuilt.memos().map(\.title) == ["One"], "the rebuild adopted the file")
        rebuilt.close()
        #expect(app.onDisk() == .indexReplaced, "another file at the path")

        try FileManager.default.removeItem(atPath: fixture.folder)
        #expect(app.onDisk() == .folderGone)
        try FileManager.default.createDirectory(atPath: fixture.folder, withIntermediateDirectories: true)
        #expect(app.onDisk() == .folderGone, "a folder made again is another folder")
        app.close()
    }

    /// A recording begun in an index that was replaced is finished in the new one, under the
    /// row the rebuild adopted for its file, not under its old id (another memo's there).
    @Test func aRecordingRebindsToTheIndexThatReplacedIts() throws {
        let fixture = try LibraryFixture()
        let app = try fixture.open()
        let first = try fixture.record(into: app, title: "First")
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 1)
        let recording = try app.beginRecording(title: "Going on", settings: settings, at: LibraryFixture.start.addingTimeInterval(60))
        try LibraryFixture.writeTone(to: recording.memo.path, settings: settings, metadata: recording.metadata, seconds: 0.2)
        app.close()
        for name in ["index.sqlite3", "index.sqlite3-wal", "index.sqlite3-shm"] {
            try? FileManager.default.removeItem(atPath: fixture.folder + "/" + name)
        }
        let reopened = try fixture.open()
        let rebound = try reopened.rebind(recording)
        let finished = try reopened.finishRecording(rebound, peakDB: -6)
        #expect(finished.path == recording.memo.path)
        #expect(finished.state == .complete)
        let all = try reopened.memos()
        #expect(all.count == 2, "\(all.map(\.title))")
        #expect(all.contains { $0.path == first.path && $0.title == "First" }, "the other memo is untouched")
    }

    /// The folder deleted while a file in it is still open for writing: the file is copied back
    /// under its name from the descriptor this process still has.
    @Test func aDeletedFileStillOpenIsCopiedBack() throws {
        let fixture = try LibraryFixture()
        let folder = fixture.folder + "/sub"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/memo.wav"
        let writer = open(path, O_WRONLY | O_CREAT, 0o644)
        #expect(writer >= 0)
        let payload = [UInt8]((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        #expect(payload.withUnsafeBytes { write(writer, $0.baseAddress, 1_000_000) } == 1_000_000)
        #expect(DeletedFileHold(path: path) == nil, "the name still exists")
        #expect(unlink(path) == 0 && rmdir(folder) == 0, "the folder is deleted with the file in it")
        let hold = try #require(DeletedFileHold(path: path))
        // The writer goes on after the hold was taken; the copy has everything.
        #expect(payload.withUnsafeBytes { write(writer, $0.baseAddress.map { $0 + 1_000_000 }, 2_000_000) } == 2_000_000)
        close(writer)
        try hold.restore()
        let copied = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(copied == payload)
        #expect(throws: MemoLibraryError.self) { try hold.restore() }
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == payload, "a second restore replaces nothing")
    }
}
