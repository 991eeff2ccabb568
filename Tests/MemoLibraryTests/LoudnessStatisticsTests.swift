import TestSupport
import Foundation
import Metering
import SoundFiles
import Testing
@testable import MemoLibrary

/// Per-memo loudness statistics (schema version 2): measured by the recorder while it writes
/// (stored without decoding the file), from the file when a recording finishes without them,
/// is recovered or is adopted, and absent (nil) for rows migrated from version 1 until their
/// file is re-read.
@Suite struct LoudnessStatisticsTests {
    /// A stereo 1 kHz sine whose every channel peaks at −23 dBFS (EBU Tech 3341 case 1): −23.0 LUFS.
    static func writeSine(
        to path: String, seconds: Double = 4, metadata: SoundFileMetadata = SoundFileMetadata(),
        fullScaleSamples: [Int] = []
    ) throws {
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 2)
        let writer = try SoundFileWriter(path: path, settings: settings, metadata: metadata)
        let frames = Int(seconds * 48000)
        let amplitude = Float(pow(10, -23.0 / 20))
        var samples = [Float](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let value = amplitude * Float(sin(2 * Double.pi * 1000 * Double(frame) / 48000))
            samples[2 * frame] = value
            samples[2 * frame + 1] = value
        }
        for (number, index) in fullScaleSamples.enumerated() {
            samples[index] = number.isMultiple(of: 2) ? 1 : -1
        }
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: .float32)
        }
        try writer.close()
    }

    /// Begins a stereo 48 kHz WAV memo titled `title` in `library` and writes `writeSine` into it.
    static func recordSine(in library: MemoLibrary, title: String, fullScaleSamples: [Int] = []) throws -> MemoRecording {
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 2)
        let recording = try library.beginRecording(title: title, settings: settings, at: LibraryFixture.start)
        try writeSine(to: recording.memo.path, metadata: recording.metadata, fullScaleSamples: fullScaleSamples)
        return recording
    }

    @Test func finishedRecordingStoresItsLoudness() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let recording = try Self.recordSine(in: library, title: "Tone")
        let finished = try library.finishRecording(recording, peakDB: -23)

        let loudness = try #require(finished.loudnessLUFS)
        #expect(abs(loudness - -23) <= 0.2)
        let truePeak = try #require(finished.truePeakDBTP)
        #expect(abs(truePeak - -23) <= 0.2)
        #expect(finished.clipCount == 0)
        let range = try #require(finished.loudnessRange, "4 s is enough for a loudness range")
        #expect(range < 1, "a steady tone has (almost) no loudness range")
        #expect(finished.peakDB == -23, "the recorder's own peak is kept")

        // What another process reads back from the index.
        library.close()
        let reopened = try fixture.open()
        let stored = try #require(try reopened.memo(id: finished.id))
        #expect(stored.loudnessLUFS == finished.loudnessLUFS)
        #expect(stored.truePeakDBTP == finished.truePeakDBTP)
        #expect(stored.loudnessRange == finished.loudnessRange)
        #expect(stored.clipCount == 0)
    }

    @Test func finishingWithTheRecordersStatisticsDoesNotDecodeTheFile() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let recording = try Self.recordSine(in: library, title: "Measured")
        // Figures unlike the file's (−23 LUFS, no clips): what is stored can only come from here.
        let measured = ProgrammeStatistics(
            frames: 192_000, samplePeakDB: -1.5, truePeakDBTP: -1.25, loudnessLUFS: -31.5, loudnessRange: 4.5,
            clipCount: 7)
        let decodedBefore = library.filesDecoded
        let finished = try library.finishRecording(recording, statistics: measured)

        #expect(library.filesDecoded == decodedBefore, "the audio is not decoded")
        #expect(finished.state == .complete)
        #expect(finished.frames == 192_000, "the length is the file header's")
        #expect(finished.peakDB == -1.5)
        #expect(finished.truePeakDBTP == -1.25)
        #expect(finished.loudnessLUFS == -31.5)
        #expect(finished.loudnessRange == 4.5)
        #expect(finished.clipCount == 7)
        library.close()
        let stored = try #require(try fixture.open().memo(id: finished.id))
        #expect(stored.loudnessLUFS == -31.5)
        #expect(stored.clipCount == 7)
    }

    @Test func finishingWithoutStatisticsDecodesTheFileOnce() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let recording = try Self.recordSine(in: library, title: "Unmeasured", fullScaleSamples: [2000, 2002, 2004])
        let decodedBefore = library.filesDecoded
        let finished = try library.finishRecording(recording, statistics: nil)

        #expect(library.filesDecoded == decodedBefore + 1)
        let loudness = try #require(finished.loudnessLUFS)
        #expect(abs(loudness - -23) <= 0.2)
        #expect(finished.clipCount == 1)
        #expect(abs(finished.peakDB) < 0.01, "the peak is the file's too")
    }

    @Test func droppedFileIsMeasuredOnAdoption() throws {
        let fixture = try LibraryFixture()
        try fixture.open().close()
        try Self.writeSine(to: fixture.folder + "/dropped.wav", fullScaleSamples: [1000, 1002, 1004, 1006, 30_001, 30_003, 30_005, 50_001])

        let library = try fixture.open()
        #expect(library.maintenance.adopted.count == 1)
        #expect(library.filesDecoded == 1, "adoption measures the file")
        let memo = try #require(try library.memos().first)
        #expect(memo.title == "dropped")
        let loudness = try #require(memo.loudnessLUFS)
        #expect(abs(loudness - -23) <= 0.2)
        #expect(memo.clipCount == 2, "a run of four on the left, of three on the right; the lone sample is none")
        let truePeak = try #require(memo.truePeakDBTP)
        #expect(truePeak > -0.5, "the full-scale samples are the true peak")
        #expect(abs(memo.peakDB) < 0.01)
    }

    @Test func deadRecordingIsMeasuredOnRecovery() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 2)
        let recording = try library.beginRecording(title: "Crashed", settings: settings, at: LibraryFixture.start)
        try Self.writeSine(to: recording.memo.path, metadata: recording.metadata)
        recording.releaseLock()
        library.close()

        let after = try fixture.open()
        #expect(after.maintenance.recovered == [recording.memo.id])
        let memo = try #require(try after.memo(id: recording.memo.id))
        let loudness = try #require(memo.loudnessLUFS)
        #expect(abs(loudness - -23) <= 0.2)
        #expect(memo.clipCount == 0)
    }

    @Test func silenceHasNoLoudness() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: "Quiet", settings: settings, at: LibraryFixture.start)
        let writer = try SoundFileWriter(path: recording.memo.path, settings: settings, metadata: recording.metadata)
        let silence = [Float](repeating: 0, count: 48000)
        try silence.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: 48000, sampleFormat: .float32)
        }
        try writer.close()
        let memo = try library.finishRecording(recording, peakDB: nil)
        #expect(memo.loudnessLUFS == nil, "below the −70 LUFS gate")
        #expect(memo.loudnessRange == nil)
        #expect(memo.clipCount == 0)
    }

    @Test func versionOneIndexIsMigratedKeepingItsRows() throws {
        let fixture = try LibraryFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder, withIntermediateDirectories: true)
        try Self.writeSine(to: fixture.folder + "/old.wav")
        let size = try #require(FileManager.default.attributesOfItem(atPath: fixture.folder + "/old.wav")[.size] as? Int)

        // An index as VoiceMemo wrote it before loudness statistics: schema version 1, one memo.
        let database = try SQLiteDatabase(path: fixture.folder + "/" + MemoIndex.fileName, mode: .readWriteCreate)
        try database.execute(IndexSchema.migrations[0])
        try database.execute("PRAGMA user_version = 1")
        _ = try database.run(
            "INSERT INTO memos (id, title, created, duration, frames, sample_rate, channels, format, encoding, path, size, peak_db, state) "
                + "VALUES (7, 'From version 1', 1795960992, 4, 192000, 48000, 2, 'wav', 'pcm16', 'old.wav', ?, -23, 'complete')",
            [.integer(Int64(size))])
        database.close()

        let library = try fixture.open()
        #expect(library.maintenance.adopted.isEmpty, "its file is known")
        let version = try library.index.database.query("PRAGMA user_version").first?.integer(0)
        #expect(version == IndexSchema.currentVersion)
        let memo = try #require(try library.memo(id: 7))
        #expect(memo.title == "From version 1")
        #expect(memo.peakDB == -23)
        #expect(memo.state == .complete)
        #expect(memo.loudnessLUFS == nil, "unknown until measured")
        #expect(memo.truePeakDBTP == nil)
        #expect(memo.loudnessRange == nil)
        #expect(memo.clipCount == nil)
        #expect(try library.integrityCheck() == "ok")

        // New memos in the migrated index get their figures.
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 2)
        let recording = try library.beginRecording(title: "New", settings: settings, at: LibraryFixture.start)
        try Self.writeSine(to: recording.memo.path, metadata: recording.metadata)
        let finished = try library.finishRecording(recording, peakDB: -23)
        #expect(finished.loudnessLUFS != nil)
    }

    @Test func versionOneIndexReadsWithoutMigrating() throws {
        let fixture = try LibraryFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder, withIntermediateDirectories: true)
        let database = try SQLiteDatabase(path: fixture.folder + "/" + MemoIndex.fileName, mode: .readWriteCreate)
        try database.execute(IndexSchema.migrations[0])
        try database.execute("PRAGMA user_version = 1")
        _ = try database.run(
            "INSERT INTO memos (id, title, created, sample_rate, channels, format, encoding, path, state) "
                + "VALUES (3, 'Old', 1795960992, 48000, 1, 'wav', 'pcm16', 'x.wav', 'missing')")
        let index = MemoIndex(database: database, folder: fixture.folder)
        #expect(throws: IndexOpenProblem.self) { try index.checkColumns() }
        try index.checkColumns(allowingOlder: true)
        let memo = try #require(try index.memo(id: 3))
        #expect(memo.title == "Old")
        #expect(memo.loudnessLUFS == nil && memo.clipCount == nil)
        database.close()
    }
}
