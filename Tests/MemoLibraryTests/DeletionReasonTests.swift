import TestSupport
import Foundation
import Vocabulary
import SoundFiles
import Testing

@testable import MemoLibrary

/// Why a memo is in Recently Deleted (`DeletionReason`, the index's `deleted_reason`, schema 7):
/// each way there, the undo of an edit, an index of version 6, and text a newer build wrote.
@Suite struct DeletionReasonTests {
    @Test func eachWayIntoRecentlyDeletedKeepsItsReason() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let gone = try fixture.record(into: library, title: "Gone", seconds: 1)
        #expect(try library.delete(id: gone.id, at: LibraryFixture.start).deletionReason == .deleted)

        let standup = try Self.pausedMemo(library, title: "Standup notes")
        #expect(standup.deletionReason == nil)
        let trim = try library.trim(id: standup.id, keeping: 4_800..<40_000, at: LibraryFixture.start)
        #expect(trim.original.deletionReason == .replaced(by: .trim))
        #expect(trim.memos.first?.deletionReason == nil)

        let restored = try library.undoEdit(originalID: standup.id, madeIDs: trim.memos.map(\.id), at: LibraryFixture.start)
        #expect(restored.deletionReason == nil, "back in the library: no reason")
        let undone = try #require(try library.memo(id: trim.memos[0].id))
        #expect(undone.deletionReason == .undone(.trim))

        let split = try library.split(id: standup.id, atFrame: 24_000, at: LibraryFixture.start)
        #expect(split.original.deletionReason == .replaced(by: .split))
        let halves = try library.undoEdit(originalID: standup.id, madeIDs: split.memos.map(\.id), at: LibraryFixture.start)
        #expect(halves.deletionReason == nil)
        #expect(try split.memos.map { try library.memo(id: $0.id)?.deletionReason } == [.undone(.split), .undone(.split)])

        let removal = try library.removeSilences(id: standup.id, SilenceRemoval(keptPause: 0.1), at: LibraryFixture.start)
        #expect(removal.original.deletionReason == .replaced(by: .removePauses))

        let deleted = try library.memos(deleted: true)
        #expect(Set(deleted.compactMap(\.deletionReason)) == [.deleted, .undone(.trim), .undone(.split), .replaced(by: .removePauses)])
        #expect(deleted.allSatisfy { $0.deletedAt != nil && $0.deletionReason != nil })
        #expect(try library.memos(deleted: false).allSatisfy { $0.deletionReason == nil })
    }

    /// 0.5 s of tone, 1 s of silence, 0.5 s of tone (48 kHz mono WAV): a memo with a pause to remove.
    static func pausedMemo(_ library: MemoLibrary, title: String) throws -> Memo {
        let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: title, settings: settings, at: LibraryFixture.start)
        let tone = (0..<24_000).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        let signal = tone + [Int16](repeating: 0, count: 48_000) + tone
        let writer = try SoundFileWriter(path: recording.memo.path, settings: settings, metadata: recording.metadata)
        try signal.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: signal.count, sampleFormat: .int16)
        }
        try writer.close()
        return try library.finishRecording(recording, peakDB: -12)
    }

    @Test func anIndexOfVersionSixIsMigratedAndItsDeletedRowsReadAsDeleted() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Old", seconds: 0.5)
        let trimmed = try library.trim(id: memo.id, keeping: 0..<12_000, at: LibraryFixture.start)
        library.close()
        // The index as version 6 wrote it: no deleted_reason column (nor the tags and star of
        // version 8, nor the channel roles and speakers of version 9).
        let database = try SQLiteDatabase(path: fixture.folder + "/" + MemoIndex.fileName, mode: .readWriteCreate)
        try database.execute(
            "ALTER TABLE transcript_words DROP COLUMN speaker; ALTER TABLE memos DROP COLUMN channel_roles; "
                + "ALTER TABLE memos DROP COLUMN starred; ALTER TABLE memos DROP COLUMN tags; "
                + "ALTER TABLE memos DROP COLUMN deleted_reason; PRAGMA user_version = 6")
        database.close()

        library = try fixture.open()
        #expect(try library.index.database.query("PRAGMA user_version").first?.integer(0) == IndexSchema.currentVersion)
        #expect(try library.memo(id: memo.id)?.deletionReason == .deleted, "deleted before reasons were kept")
        #expect(try library.memo(id: trimmed.memos[0].id)?.deletionReason == nil)
        #expect(try library.memos(deleted: true).map(\.id) == [memo.id])
    }

    @Test func aReasonThisBuildDoesNotKnowReadsAsDeleted() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Newer", seconds: 0.5)
        try library.delete(id: memo.id, at: LibraryFixture.start)
        library.close()
        let database = try SQLiteDatabase(path: fixture.folder + "/" + MemoIndex.fileName, mode: .readWriteCreate)
        try database.execute("UPDATE memos SET deleted_reason = 'crop'")
        database.close()

        library = try fixture.open()
        let read = try #require(try library.memo(id: memo.id))
        #expect(read.deletionReason == .unknown("crop"))
        #expect(read.deletionReason?.label == "deleted")
        #expect(try library.restore(id: memo.id).deletionReason == nil)
    }

    @Test func reasonsRoundTripThroughTheirStoredText() {
        let reasons: [DeletionReason] =
            [.deleted, .foundInTrash, .unknown("undone-crop")] + MemoEdit.allCases.flatMap { [.replaced(by: $0), .undone($0)] }
        for reason in reasons {
            #expect(DeletionReason(storedText: reason.storedText) == reason)
        }
        #expect(DeletionReason(storedText: nil) == .deleted)
        #expect(DeletionReason.replaced(by: .removePauses).label == "before removing pauses")
        #expect(DeletionReason.replaced(by: .trim).label == "before trim")
        #expect(DeletionReason.undone(.trim).label == "undone trim")
        #expect(DeletionReason.unknown("").label == "deleted")
    }
}
