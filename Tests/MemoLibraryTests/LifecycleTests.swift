import TestSupport
import Foundation
import SoundFiles
import Synchronization
import Testing
@testable import MemoLibrary

@Suite struct LifecycleTests {
    @Test func deleteRestorePurge() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Round trip")
        let deleted = try library.delete(id: memo.id, at: LibraryFixture.start)
        #expect(deleted.path.contains("/.trash/"))
        #expect(FileManager.default.fileExists(atPath: deleted.path))
        #expect(!FileManager.default.fileExists(atPath: memo.path))
        #expect(try library.memos().isEmpty)
        #expect(throws: MemoLibraryError.self) { try library.delete(id: memo.id, at: LibraryFixture.start) }

        let restored = try library.restore(id: memo.id)
        #expect(restored.path == memo.path && restored.deletedAt == nil)
        #expect(FileManager.default.fileExists(atPath: memo.path))
        #expect(throws: MemoLibraryError.self) { try library.restore(id: memo.id) }
        #expect(throws: MemoLibraryError.self, "only deleted memos are purged") { try library.purge(id: memo.id) }

        try library.delete(id: memo.id, at: LibraryFixture.start)
        try library.purge(id: memo.id)
        #expect(try library.memo(id: memo.id) == nil)
        #expect(!FileManager.default.fileExists(atPath: deleted.path))
    }

    @Test func purgeAllEmptiesRecentlyDeletedOnly() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let kept = try fixture.record(into: library, title: "Kept")
        for title in ["Gone 1", "Gone 2"] {
            try library.delete(id: try fixture.record(into: library, title: title).id, at: LibraryFixture.start)
        }
        #expect(try library.purgeAll().count == 2)
        #expect(try library.memos(deleted: true).isEmpty)
        #expect(try library.memos().map(\.id) == [kept.id])
    }

    @Test func purgedAfterThirtyDaysWithASteppedClock() throws {
        let fixture = try LibraryFixture()
        let day: TimeInterval = 24 * 3600
        var library = try fixture.open()
        let old = try fixture.record(into: library, title: "Old")
        let young = try fixture.record(into: library, title: "Young")
        try library.delete(id: old.id, at: LibraryFixture.start)
        try library.delete(id: young.id, at: LibraryFixture.start.addingTimeInterval(10 * day))
        library.close()
        for (days, expected) in [(29.9, ["Old", "Young"]), (30.01, ["Young"]), (39.9, ["Young"]), (40.01, [])] {
            library = try fixture.open(now: LibraryFixture.start.addingTimeInterval(days * day))
            #expect(try library.memos(deleted: true).map(\.title).sorted() == expected, "day \(days)")
            library.close()
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/.trash/" + (old.path.split(separator: "/").last.map(String.init) ?? "")))
    }

    @Test func aLiveRecordingIsNeverRecoveredAndADeadOneIs() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: "In progress", settings: settings, at: LibraryFixture.start)
        #expect(try library.memo(id: recording.memo.id)?.state == .recording, "the memo exists from the start")
        try LibraryFixture.writeTone(to: recording.memo.path, settings: settings, metadata: recording.metadata, seconds: 1)

        // Another opener (as another process would) while the lock is held: left alone.
        let other = try fixture.open()
        #expect(other.maintenance.recovered.isEmpty)
        #expect(other.maintenance.adopted.isEmpty, "its file is known, not adopted")
        #expect(try other.memo(id: recording.memo.id)?.state == .recording)
        other.close()

        // The recorder dies: the kernel drops its flock.
        recording.releaseLock()
        let after = try fixture.open()
        #expect(after.maintenance.recovered == [recording.memo.id])
        let memo = try #require(try after.memo(id: recording.memo.id))
        #expect(memo.state == .recovered)
        #expect(memo.frames == 48_000)
        #expect(memo.title == "In progress")
    }

    @Test func deadRecordingThatNeverWroteIsMissingNotDropped() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let recording = try library.beginRecording(
            title: nil, settings: RecordingSettings(format: .flac), at: LibraryFixture.start)
        recording.releaseLock()
        let after = try fixture.open()
        #expect(try after.memo(id: recording.memo.id)?.state == .missing)
        #expect(try after.memo(id: recording.memo.id)?.title == "Memo 2026-11-29 14:03:12")
    }

    @Test func abandonedRecordingLeavesNothing() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let recording = try library.beginRecording(title: nil, settings: RecordingSettings(format: .wav), at: LibraryFixture.start)
        try library.abandonRecording(recording)
        #expect(try library.memos().isEmpty)
        #expect(FileSystem.regularFiles(in: fixture.folder, sizes: true).filter { !$0.name.hasPrefix("index.sqlite3") }.isEmpty)
    }

    @Test func openersCreatingOneIndexAtOnceAllOpenIt() throws {
        // SQLite answers some of these races (two connections creating the file, one switching it to
        // WAL) with SQLITE_BUSY without calling its busy handler; the opener must wait them out.
        for round in 0..<10 {
            let fixture = try LibraryFixture()
            let folder = fixture.folder
            let failures = Mutex<[String]>([])
            let finished = DispatchSemaphore(value: 0)
            for opener in 0..<4 {
                Thread.detachNewThread {
                    defer { finished.signal() }
                    do {
                        let library = try MemoLibrary(folder: folder, now: LibraryFixture.start, timeZone: LibraryFixture.utc)
                        let recording = try library.beginRecording(
                            title: "o\(opener)", settings: RecordingSettings(format: .wav, channels: 1), at: LibraryFixture.start)
                        try library.abandonRecording(recording)
                        library.close()
                    } catch {
                        failures.withLock { $0.append("round \(round), opener \(opener): \(error)") }
                    }
                }
            }
            for _ in 0..<4 { finished.wait() }
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        }
    }

    @Test func concurrentWritersKeepEverything() async throws {
        let fixture = try LibraryFixture()
        try fixture.open().close()
        let folder = fixture.folder
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    let library = try MemoLibrary(folder: folder, now: LibraryFixture.start, timeZone: LibraryFixture.utc)
                    for index in 0..<15 {
                        let recording = try library.beginRecording(
                            title: "w\(writer) #\(index)", settings: RecordingSettings(format: .wav, channels: 1),
                            at: LibraryFixture.start)
                        try LibraryFixture.writeTone(
                            to: recording.memo.path, settings: RecordingSettings(format: .wav, channels: 1),
                            metadata: recording.metadata, seconds: 0.01)
                        try library.finishRecording(recording, peakDB: nil)
                    }
                }
            }
            try await group.waitForAll()
        }
        let library = try fixture.open()
        let memos = try library.memos()
        #expect(memos.count == 60)
        #expect(memos.allSatisfy { $0.state == .complete })
        #expect(library.maintenance.isEmpty)
        #expect(try library.integrityCheck() == "ok")
    }
}
