import TestSupport
import Foundation
@testable import SoundFiles
import Testing
import Vocabulary
@testable import MemoLibrary

/// A meeting memo's channel roles and its transcript's speakers: kept in the index (version 9)
/// and the roles in the file's comment, so a rebuilt index keeps them; an index of version 8
/// opens with no roles and no speakers.
@Suite struct MeetingRolesTests {
    static let stereo = RecordingSettings(format: .flac, sampleRate: 48000, channels: 2)

    /// A meeting memo recorded as `record --source meeting` begins one.
    static func recordMeeting(into library: MemoLibrary, settings: RecordingSettings = stereo) throws -> Memo {
        let roles = InputName.meeting.channelRoles(channels: settings.channels)
        let recording = try library.beginRecording(title: "Standup", settings: settings, at: LibraryFixture.start, channelRoles: roles)
        try LibraryFixture.writeTone(to: recording.memo.path, settings: settings, metadata: recording.metadata, seconds: 0.25)
        return try library.finishRecording(recording, peakDB: -6)
    }

    @Test func rolesAreKeptInTheIndexAndTheCommentAndSurviveARebuiltIndex() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try Self.recordMeeting(into: library)
        #expect(memo.channelRoles == ChannelRoles(microphone: 0..<1, desktop: 1..<2))
        let comment = try SoundFileReader(path: memo.path).metadata.comment
        #expect(comment == "VoiceMemo memo \(memo.id)\nvoicememo-channels: mic 1, desktop 2")
        _ = try library.changeTags(id: memo.id, MemoTag.change(["+work"]))
        #expect(
            try SoundFileReader(path: memo.path).metadata.comment
                == "VoiceMemo memo \(memo.id)\nvoicememo-tags: work\nvoicememo-channels: mic 1, desktop 2",
            "tagging keeps the roles' line")
        let plain = try fixture.record(into: library, title: "Alone")
        #expect(plain.channelRoles == nil)
        library.close()

        for name in ["index.sqlite3", "index.sqlite3-wal", "index.sqlite3-shm"] {
            try? FileManager.default.removeItem(atPath: fixture.folder + "/" + name)
        }
        library = try fixture.open()
        #expect(library.maintenance.rebuiltIndex)
        #expect(try library.memo(id: memo.id)?.channelRoles == ChannelRoles(microphone: 0..<1, desktop: 1..<2))
        #expect(try library.memo(id: plain.id)?.channelRoles == nil)
    }

    @Test func fourChannelsAreTwoPairs() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try Self.recordMeeting(
            into: library, settings: RecordingSettings(format: .wav, sampleRate: 48000, channels: 4))
        #expect(memo.channelRoles == ChannelRoles(microphone: 0..<2, desktop: 2..<4))
        #expect(try SoundFileReader(path: memo.path).metadata.comment?.hasSuffix("voicememo-channels: mic 1-2, desktop 3-4") == true)
    }

    @Test func speakersRoundTripAndWordsWithoutThemHaveNone() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try Self.recordMeeting(into: library)
        let words = [
            TranscriptWord(word: "hello", start: 0.1, end: 0.4, speaker: .me),
            TranscriptWord(word: "there", start: 0.5, end: 0.9, speaker: .them),
            TranscriptWord(word: "again", start: 1.0, end: 1.2),
        ]
        try library.storeTranscript(Transcript(words: words, model: "m", frames: memo.frames), forMemo: memo.id, at: LibraryFixture.start)
        #expect(try library.transcript(of: memo)?.transcript.words == words)
        #expect(try library.searchTranscripts("there").first?.speaker == .them)
        #expect(try library.searchTranscripts("again").first?.speaker == nil)
    }

    /// A trimmed meeting is still a meeting: its row and its file's comment keep the roles, and
    /// the words it keeps their speakers.
    @Test func aTrimKeepsTheRolesAndTheSpeakers() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try Self.recordMeeting(into: library)
        let words = [
            TranscriptWord(word: "cut", start: 0.01, end: 0.04, speaker: .me),
            TranscriptWord(word: "kept", start: 0.1, end: 0.15, speaker: .them),
        ]
        try library.storeTranscript(Transcript(words: words, model: "m", frames: memo.frames), forMemo: memo.id, at: LibraryFixture.start)
        let trimmed = try #require(try library.trim(id: memo.id, keeping: 2_400..<12_000, at: LibraryFixture.start).memos.first)
        #expect(trimmed.channelRoles == memo.channelRoles)
        #expect(try SoundFileReader(path: trimmed.path).metadata.comment?.contains("voicememo-channels: mic 1, desktop 2") == true)
        #expect(try library.transcript(of: trimmed)?.transcript.words.map(\.speaker) == [.them])
    }

    /// An index of version 8 with a memo and its transcript: read as it is (read-only), then
    /// migrated; its memo has no roles and its words no speaker.
    @Test func versionEightIndexOpensWithNoRolesAndNoSpeakers() throws {
        let fixture = try LibraryFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder, withIntermediateDirectories: true)
        let settings = Self.stereo
        try LibraryFixture.writeTone(
            to: fixture.folder + "/old.flac", settings: settings, metadata: SoundFileMetadata(comment: "VoiceMemo memo 5"), seconds: 0.25)
        let size = Int64(FileManager.default.fileSize(fixture.folder + "/old.flac"))
        let database = try SQLiteDatabase(path: fixture.folder + "/" + MemoIndex.fileName, mode: .readWriteCreate)
        for migration in IndexSchema.migrations.prefix(8) { try database.execute(migration) }
        try database.execute("PRAGMA user_version = 8")
        _ = try database.run(
            "INSERT INTO memos (id, title, created, duration, frames, sample_rate, channels, format, encoding, path, size, peak_db, state) "
                + "VALUES (5, 'From version 8', 1795960992, 0.25, 12000, 48000, 2, 'flac', 'pcm16', 'old.flac', ?, -6, 'complete')",
            [.integer(size)])
        _ = try database.run(
            "INSERT INTO transcripts (memo_id, state, model, frames, transcribed_at) VALUES (5, 'complete', 'm', 12000, 1795960992)")
        _ = try database.run(
            "INSERT INTO transcript_words (memo_id, position, word, start_time, end_time) VALUES (5, 0, 'before', 0.1, 0.2)")
        let index = MemoIndex(database: database, folder: fixture.folder)
        try index.checkColumns(allowingOlder: true)
        #expect(try index.memo(id: 5)?.channelRoles == nil)
        #expect(try index.transcript(id: 5, memoFrames: 12000)?.transcript.words == [TranscriptWord(word: "before", start: 0.1, end: 0.2)])
        database.close()

        let library = try fixture.open()
        #expect(try library.index.database.query("PRAGMA user_version").first?.integer(0) == IndexSchema.currentVersion)
        let memo = try #require(try library.memo(id: 5))
        #expect(memo.title == "From version 8")
        #expect(memo.channelRoles == nil, "recorded before roles were kept")
        let old = try #require(try library.transcript(of: memo))
        #expect(old.transcript.words == [TranscriptWord(word: "before", start: 0.1, end: 0.2, speaker: nil)])
        #expect(try library.integrityCheck() == "ok")
    }
}
