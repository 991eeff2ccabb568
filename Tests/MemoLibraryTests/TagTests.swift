import TestSupport
import Foundation
@testable import SoundFiles
import Testing
import Vocabulary
@testable import MemoLibrary

/// Tags and the favourite star: kept in the index and in the file's comment, so an index
/// rebuilt from the files keeps them; a person's own comment lines are kept.
@Suite struct TagTests {
    /// Every format whose comment has room (MP3's ID3v1 comment does not: see `tagsAreWrittenToFile`).
    static let formatsWithComments = FileFormat.allCases.filter { $0 != .mp3 }

    @Test(arguments: formatsWithComments)
    func tagsAndStarSurviveARebuiltIndex(format: FileFormat) throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Standup", format: format)
        #expect(library.tagsAreWrittenToFile(memo), "\(format)")
        var tagged = try library.changeTags(id: memo.id, MemoTag.change(["+Work", "+draft"]))
        #expect(tagged.tags == ["work", "draft"])
        tagged = try library.setStarred(id: memo.id, true)
        #expect(tagged.isStarred && tagged.tags == ["work", "draft"])
        #expect(tagged.size == FileManager.default.fileSize(memo.path), "the index has the new file's size")
        let comment = try SoundFileReader(path: memo.path).metadata.comment
        #expect(comment == "VoiceMemo memo \(memo.id)\nvoicememo-tags: work draft\nvoicememo-starred: yes", "\(format)")
        try library.rename(id: memo.id, to: "Standup, renamed")
        #expect(try SoundFileReader(path: memo.path).metadata.comment == comment, "a rename keeps the comment: \(format)")
        library.close()

        for name in ["index.sqlite3", "index.sqlite3-wal", "index.sqlite3-shm"] {
            try? FileManager.default.removeItem(atPath: fixture.folder + "/" + name)
        }
        library = try fixture.open()
        #expect(library.maintenance.rebuiltIndex)
        let rebuilt = try #require(try library.memo(id: memo.id))
        #expect(rebuilt.tags == ["work", "draft"], "\(format)")
        #expect(rebuilt.isStarred, "\(format)")
        #expect(rebuilt.title == "Standup, renamed")
    }

    @Test(arguments: [FileFormat.wav, .flac, .ogg, .aiff])
    func aMarkerWrittenIntoTheFileKeepsTheComment(format: FileFormat) throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Marked", format: format, seconds: 0.5)
        try library.changeTags(id: memo.id, MemoTag.change(["+work"]))
        let comment = try SoundFileReader(path: memo.path).metadata.comment
        _ = try library.addMarker(Marker(time: 0.25, label: "here"), toMemo: memo.id)
        #expect(try SoundFileReader(path: memo.path).metadata.comment == comment, "\(format)")
    }

    @Test func removingTheLastTagAndTheStarLeavesOnlyTheID() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Idea", format: .wav)
        try library.changeTags(id: memo.id, MemoTag.change(["+idea"]))
        try library.setStarred(id: memo.id, true)
        try library.changeTags(id: memo.id, MemoTag.change(["-idea"]))
        let plain = try library.setStarred(id: memo.id, false)
        #expect(plain.tags.isEmpty && !plain.isStarred)
        #expect(try SoundFileReader(path: memo.path).metadata.comment == "VoiceMemo memo \(memo.id)")
        #expect(try SoundFileReader(path: memo.path).metadata.title == "Idea", "the title is kept")
    }

    @Test(arguments: [FileFormat.flac, .wav, .mp3])
    func aTrimKeepsTheTagsAndTheStar(format: FileFormat) throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Long", format: format, seconds: 0.5)
        try library.changeTags(id: memo.id, MemoTag.change(["+work"]))
        try library.setStarred(id: memo.id, true)
        let trimmed = try library.trim(id: memo.id, keeping: 0..<12_000, at: LibraryFixture.start)
        let piece = try #require(trimmed.memos.first)
        #expect(piece.tags == ["work"] && piece.isStarred)
        library.close()
        for name in ["index.sqlite3", "index.sqlite3-wal", "index.sqlite3-shm"] {
            try? FileManager.default.removeItem(atPath: fixture.folder + "/" + name)
        }
        library = try fixture.open()
        let rebuilt = try #require(try library.memos(deleted: false).first { $0.path == piece.path })
        // MP3's tags were in the index only: a rebuild has none to find.
        #expect(rebuilt.tags == (format == .mp3 ? [] : ["work"]), "\(format)")
        #expect(rebuilt.isStarred == (format != .mp3), "\(format)")
    }

    @Test(arguments: [FileFormat.wav, .flac])
    func tagsGivenWhileRecordingGoIntoTheFileWhenItIsSaved(format: FileFormat) throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let settings = RecordingSettings(format: format, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: "Live", settings: settings, at: LibraryFixture.start)
        try library.changeTags(id: recording.memo.id, MemoTag.change(["+live"]))
        try library.rename(id: recording.memo.id, to: "Live, renamed")
        try LibraryFixture.writeTone(to: recording.memo.path, settings: settings, metadata: recording.metadata, seconds: 0.3)
        let memo = try library.finishRecording(recording, peakDB: -6)
        #expect(memo.tags == ["live"] && memo.title == "Live, renamed")
        library.close()
        for name in ["index.sqlite3", "index.sqlite3-wal", "index.sqlite3-shm"] {
            try? FileManager.default.removeItem(atPath: fixture.folder + "/" + name)
        }
        library = try fixture.open()
        let rebuilt = try #require(try library.memo(id: memo.id))
        #expect(rebuilt.tags == ["live"] && rebuilt.title == "Live, renamed", "\(format)")
    }

    @Test func mp3KeepsTagsInTheIndexOnly() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Song", format: .mp3)
        #expect(!library.tagsAreWrittenToFile(memo))
        let tagged = try library.changeTags(id: memo.id, MemoTag.change(["+music"]))
        #expect(tagged.tags == ["music"])
        #expect(try library.memo(id: memo.id)?.tags == ["music"])
    }

    @Test func aCommentOfItsOwnIsKept() {
        var comment = MemoComment(parsing: "Recorded at the lake\nVoiceMemo memo 7")
        #expect(comment.memoID == 7)
        comment.tags = ["lake"]
        comment.isStarred = true
        #expect(comment.text == "VoiceMemo memo 7\nvoicememo-tags: lake\nvoicememo-starred: yes\nRecorded at the lake")
        let read = MemoComment(parsing: comment.text)
        #expect(read == comment)
        #expect(MemoComment(parsing: "VoiceMemo memo 12").memoID == 12, "the comment a recording gets")
        #expect(MemoComment(parsing: "voicememo-tags: ok bad\u{7}one").tags == ["ok"], "a tag edited into something invalid is dropped")
    }

    @Test func aRefusedTagChangesNothing() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Plain", format: .flac)
        #expect(throws: MemoLibraryError.self) {
            try library.changeTags(id: memo.id, MemoTag.Change(added: ["two words"]))
        }
        #expect(try library.memo(id: memo.id)?.tags == [])
        #expect(throws: MemoLibraryError.self) { try library.setStarred(id: 999, true) }
    }

    @Test func anIndexOfVersionSevenGainsTheColumnsWithNoTags() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Old", format: .wav)
        library.close()
        // The index as version 7 wrote it: no tags, no star, nor what later versions add.
        let database = try SQLiteDatabase(path: fixture.folder + "/" + MemoIndex.fileName, mode: .readWriteCreate)
        try database.execute(
            "ALTER TABLE transcript_words DROP COLUMN speaker; ALTER TABLE memos DROP COLUMN channel_roles; "
                + "ALTER TABLE memos DROP COLUMN starred; ALTER TABLE memos DROP COLUMN tags; PRAGMA user_version = 7")
        database.close()

        library = try fixture.open()
        #expect(try library.index.database.query("PRAGMA user_version").first?.integer(0) == IndexSchema.currentVersion)
        let read = try #require(try library.memo(id: memo.id))
        #expect(read.tags.isEmpty && !read.isStarred)
        #expect(try library.setStarred(id: memo.id, true).isStarred, "the new columns are written")
    }
}
