import TestSupport
import Foundation
@testable import SoundFiles
import Testing
@testable import MemoLibrary

/// Renaming writes the title into the file's tags, safely: a new copy beside the original,
/// renamed over it only when complete.
@Suite struct RenameTests {
    @Test(arguments: FileFormat.allCases)
    func renamedTitleIsInTheFileAndSurvivesARebuild(format: FileFormat) throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Recorded", format: format)
        let title = "Renamed 🎙️ 会議 with\ttab"
        let renamed = try library.rename(id: memo.id, to: title)
        #expect(renamed.title == title)
        #expect(renamed.size == FileManager.default.fileSize(memo.path), "the index has the new file's size")
        let tagged = try SoundFileReader(path: memo.path).metadata
        #expect(tagged.comment == "VoiceMemo memo \(memo.id)", "other tags kept")
        library.close()

        for name in ["index.sqlite3", "index.sqlite3-wal", "index.sqlite3-shm"] {
            try? FileManager.default.removeItem(atPath: fixture.folder + "/" + name)
        }
        library = try fixture.open()
        let rebuilt = try #require(try library.memo(id: memo.id))
        // MP3's only tag (ID3v1) holds 30 bytes: the title is cut at a character boundary.
        #expect(rebuilt.title == (format == .mp3 ? Self.prefix(of: title, bytes: 30) : title), "\(format)")
        #expect(abs(rebuilt.peakDB + 6) < 2, "adoption measures the peak: \(rebuilt.peakDB)")
    }

    @Test(arguments: [(FileFormat.wav, Encoding.pcm24), (.flac, .pcm24), (.caf, .alac16), (.aiff, .float), (.wav, .ulaw)])
    func losslessFormatsKeepEverySample(format: FileFormat, encoding: Encoding) throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let settings = RecordingSettings(format: format, encoding: encoding, sampleRate: 48000, channels: 2)
        let recording = try library.beginRecording(title: "Exact", settings: settings, at: LibraryFixture.start)
        try LibraryFixture.writeTone(to: recording.memo.path, settings: settings, metadata: recording.metadata, seconds: 0.3)
        let memo = try library.finishRecording(recording, peakDB: -6)
        let before = try Self.samples(memo.path)
        try library.rename(id: memo.id, to: "Exact, renamed")
        #expect(try Self.samples(memo.path) == before)
        #expect(try SoundFileReader(path: memo.path).info.encoding == encoding)
    }

    @Test func theOriginalIsUntouchedUntilTheCopyIsRenamedOverIt() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Original", format: .flac)
        let original = try Data(contentsOf: URL(fileURLWithPath: memo.path))
        var seen: (String, String)?
        library.willReplaceRetaggedFile = { path, temporary throws(MemoLibraryError) in
            seen = (path, temporary)
            #expect((try? Data(contentsOf: URL(fileURLWithPath: path))) == original, "the original is as it was")
            #expect((try? SoundFileReader(path: temporary).metadata.title) == "New", "the copy is complete beside it")
            #expect(URL(fileURLWithPath: temporary).deletingLastPathComponent() == URL(fileURLWithPath: path).deletingLastPathComponent(),
                    "same folder: the rename is atomic")
            #expect(URL(fileURLWithPath: temporary).lastPathComponent.hasPrefix("."), "hidden: never adopted")
        }
        try library.rename(id: memo.id, to: "New")
        let (path, temporary) = try #require(seen)
        #expect(path == memo.path)
        #expect(!FileManager.default.fileExists(atPath: temporary), "renamed into place")
        #expect(try SoundFileReader(path: memo.path).metadata.title == "New")
    }

    @Test func aFailureBeforeTheRenameLeavesEverythingAsItWas() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Kept", format: .flac)
        let original = try Data(contentsOf: URL(fileURLWithPath: memo.path))
        var temporaryPath = ""
        library.willReplaceRetaggedFile = { _, temporary throws(MemoLibraryError) in
            temporaryPath = temporary
            throw .file(path: temporary, reason: "simulated crash before the rename")
        }
        #expect(throws: MemoLibraryError.self) { try library.rename(id: memo.id, to: "Lost?") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: memo.path)) == original)
        #expect(!FileManager.default.fileExists(atPath: temporaryPath), "the copy is removed")
        #expect(try library.memo(id: memo.id)?.title == "Kept", "the index did not change either")

        // A copy left behind by a process killed before its rename is never adopted.
        try Data(original).write(to: URL(fileURLWithPath: temporaryPath))
        let reopened = try fixture.open()
        #expect(reopened.maintenance.adopted.isEmpty)
        #expect(try reopened.memos().count == 1)
    }

    /// A WAV's title is written in place, no copy of its audio.
    @Test func aWAVIsRetitledInPlaceWithItsAudioUntouched() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "In place", format: .wav)
        let before = try Data(contentsOf: URL(fileURLWithPath: memo.path))
        let inode = try FileManager.default.attributesOfItem(atPath: memo.path)[.systemFileNumber] as? Int
        var copied = false
        library.willReplaceRetaggedFile = { _, _ throws(MemoLibraryError) in copied = true }
        for title in ["Second", "Third, longer, 🎙️", "4"] {
            let renamed = try library.rename(id: memo.id, to: title)
            #expect(try SoundFileReader(path: memo.path).metadata.title == title)
            #expect(renamed.size == FileManager.default.fileSize(memo.path))
        }
        #expect(!copied, "no copy was made")
        #expect(try FileManager.default.attributesOfItem(atPath: memo.path)[.systemFileNumber] as? Int == inode, "the same file")
        let after = try Data(contentsOf: URL(fileURLWithPath: memo.path))
        let dataChunk = try #require(WAVTitleInPlace.chunks(of: memo.path)?.first { $0.id == "data" })
        let range = Int(dataChunk.offset)..<Int(dataChunk.offset + 8 + dataChunk.size)
        #expect(after[range] == before[range], "the audio bytes are where they were, unchanged")
        #expect(after.count - before.count < 600, "grew by \(after.count - before.count) bytes for three renames")
        #expect(try SoundFileReader(path: memo.path).metadata.comment == "VoiceMemo memo \(memo.id)", "other tags kept")
        #expect(!String(decoding: after, as: UTF8.self).contains("In place"), "the old title is blanked")
    }

    @Test func aMemoBeingRecordedGetsItsNewTitleWhenItStops() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: "While recording", settings: settings, at: LibraryFixture.start)
        try library.rename(id: recording.memo.id, to: "Renamed mid-way")
        #expect(!FileManager.default.fileExists(atPath: recording.memo.path), "the recorder's file is left alone")
        try LibraryFixture.writeTone(to: recording.memo.path, settings: settings, metadata: recording.metadata, seconds: 0.2)
        let finished = try library.finishRecording(recording, peakDB: -6)
        #expect(finished.title == "Renamed mid-way")
        #expect(try SoundFileReader(path: recording.memo.path).metadata.title == "Renamed mid-way")
    }

    @Test func missingDamagedAndADPCMMemosAreRenamedInTheIndexOnly() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let adpcm = RecordingSettings(format: .wav, encoding: .imaAdpcm, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: "ADPCM", settings: adpcm, at: LibraryFixture.start)
        try LibraryFixture.writeTone(to: recording.memo.path, settings: adpcm, metadata: recording.metadata, seconds: 0.2)
        let coded = try library.finishRecording(recording, peakDB: -6)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: coded.path))
        #expect(!library.titleIsWrittenToFile(coded))
        try library.rename(id: coded.id, to: "ADPCM renamed")
        #expect(try Data(contentsOf: URL(fileURLWithPath: coded.path)) == bytes, "not re-encoded")
        #expect(try library.memo(id: coded.id)?.title == "ADPCM renamed")

        let gone = try fixture.record(into: library, title: "Gone", format: .wav)
        try FileManager.default.removeItem(atPath: gone.path)
        let damaged = try fixture.record(into: library, title: "Broken", format: .wav)
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: damaged.path))
        let reopened = try fixture.open()
        try reopened.rename(id: gone.id, to: "Gone, renamed")
        try reopened.rename(id: damaged.id, to: "Broken, renamed")
        #expect(try reopened.memo(id: gone.id)?.title == "Gone, renamed")
        #expect(try reopened.memo(id: damaged.id)?.state == .damaged)
        #expect(!FileManager.default.fileExists(atPath: gone.path), "nothing created for a missing file")
        #expect(try Data(contentsOf: URL(fileURLWithPath: damaged.path)) == Data("not audio".utf8))
        #expect(throws: MemoLibraryError.self) { try reopened.rename(id: damaged.id, to: "  ") }
        #expect(throws: MemoLibraryError.self) { try reopened.rename(id: 9999, to: "Nobody") }
    }

    /// The longest prefix of whole characters of `text` within `bytes` bytes of UTF-8.
    static func prefix(of text: String, bytes: Int) -> String {
        var result = ""
        for character in text {
            if result.utf8.count + String(character).utf8.count > bytes { break }
            result.append(character)
        }
        return result
    }

    /// Every sample of a file as Int32.
    static func samples(_ path: String) throws -> [Int32] {
        let reader = try SoundFileReader(path: path)
        var samples = [Int32](repeating: 0, count: Int(reader.info.frames) * reader.info.channels)
        let count = try samples.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return 0 }
            return try reader.read(into: base, frames: Int(reader.info.frames), as: .int32)
        }
        return Array(samples.prefix(count * reader.info.channels))
    }
}

extension FileManager {
    /// The size of the file at `path`, 0 when there is none.
    func fileSize(_ path: String) -> Int64 {
        ((try? attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
    }
}
