import TestSupport
import Foundation
import SoundFiles
import Testing
@testable import MemoLibrary

/// What opening checks (`FileCheck`) and what it measures (`AudioScan`).
@Suite struct OpeningCheckTests {
    @Test func namesOnlyStillFindsNewVanishedAndReturnedFiles() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let kept = try fixture.record(into: library, title: "Kept")
        let vanishing = try fixture.record(into: library, title: "Vanishing")
        library.close()
        let aside = fixture.root.appendingPathComponent("aside.wav").path
        try FileManager.default.moveItem(atPath: vanishing.path, toPath: aside)
        try FileManager.default.copyItem(atPath: kept.path, toPath: fixture.folder + "/dropped.wav")
        try Data("hidden".utf8).write(to: URL(fileURLWithPath: fixture.folder + "/.hidden.wav"))

        let quick = try MemoLibrary(folder: fixture.folder, now: LibraryFixture.start, timeZone: LibraryFixture.utc, fileCheck: .names)
        #expect(quick.maintenance.missing == [vanishing.id])
        #expect(quick.maintenance.adopted.count == 1)
        #expect(try quick.memos().count == 3)
        quick.close()

        try FileManager.default.moveItem(atPath: aside, toPath: vanishing.path)
        let again = try MemoLibrary(folder: fixture.folder, now: LibraryFixture.start, timeZone: LibraryFixture.utc, fileCheck: .names)
        #expect(try again.memo(id: vanishing.id)?.state == .complete, "came back: re-read")
    }

    @Test func aChangedSizeIsSeenByAFullCheckOnly() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Edited elsewhere", seconds: 0.5)
        library.close()
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 1)
        try LibraryFixture.writeTone(to: memo.path, settings: settings, metadata: SoundFileMetadata(), seconds: 1)

        let quick = try MemoLibrary(folder: fixture.folder, now: LibraryFixture.start, timeZone: LibraryFixture.utc, fileCheck: .names)
        #expect(try quick.memo(id: memo.id)?.frames == 24_000, "names only: the index's length, as documented")
        quick.close()
        let full = try fixture.open()
        let reread = try #require(try full.memo(id: memo.id))
        #expect(reread.frames == 48_000)
        #expect(reread.size == FileManager.default.fileSize(memo.path))
    }

    @Test func recoveredMemoGetsItsRealPeakAndLength() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let settings = RecordingSettings(format: .flac, sampleRate: 48000, channels: 2)
        let recording = try library.beginRecording(title: "Crashed", settings: settings, at: LibraryFixture.start)
        try LibraryFixture.writeTone(to: recording.memo.path, settings: settings, metadata: recording.metadata, seconds: 0.5)
        #expect(try library.memo(id: recording.memo.id)?.peakDB == -160)
        recording.releaseLock()  // the recorder died
        let after = try fixture.open()
        let memo = try #require(try after.memo(id: recording.memo.id))
        #expect(memo.state == .recovered)
        #expect(abs(memo.peakDB + 6.02) < 0.05, "\(memo.peakDB)")
        #expect(memo.frames == 24_000)
    }

    @Test func adoptedFilesAreMeasuredSilenceAndDamageIncluded() throws {
        let fixture = try LibraryFixture()
        try fixture.open().close()
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 1)
        let writer = try SoundFileWriter(path: fixture.folder + "/silence.wav", settings: settings)
        let zeros = [Int16](repeating: 0, count: 4800)
        try zeros.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: 4800, sampleFormat: .int16)
        }
        try writer.close()
        try LibraryFixture.writeTone(to: fixture.folder + "/tone.wav", settings: settings, metadata: .init(), seconds: 0.2)
        try Data("RIFF garbage".utf8).write(to: URL(fileURLWithPath: fixture.folder + "/broken.wav"))

        let library = try fixture.open()
        let byName = Dictionary(uniqueKeysWithValues: try library.memos().map { ($0.path.split(separator: "/").last.map(String.init) ?? "", $0) })
        #expect(byName["silence.wav"]?.peakDB == -160)
        #expect(byName["silence.wav"]?.frames == 4800)
        #expect(abs((byName["tone.wav"]?.peakDB ?? 0) + 6.02) < 0.05)
        #expect(byName["broken.wav"]?.state == .damaged)
        #expect(byName["broken.wav"]?.peakDB == -160)
    }

    @Test func scanRefusesWhatItCannotMeter() throws {
        let fixture = try LibraryFixture()
        #expect(AudioScan(path: fixture.root.appendingPathComponent("none.wav").path) == nil)
        let text = fixture.root.appendingPathComponent("text.wav").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        #expect(AudioScan(path: text) == nil)
    }
}
