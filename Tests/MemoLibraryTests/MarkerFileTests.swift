import TestSupport
import Foundation
import SoundFiles
import Testing

@testable import MemoLibrary

/// Markers in the memo's file (WAV cue points, AIFF marks, FLAC and Ogg chapter comments): an index rebuilt from the files keeps
/// them; the formats without a place say so.
@Suite struct MarkerFileTests {
    private func removeIndex(_ fixture: LibraryFixture) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: fixture.folder + "/" + MemoIndex.fileName + suffix)
        }
    }

    /// The decoded samples of the file at `path`.
    private func samples(_ path: String) throws -> [Float] {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        var samples = [Float](repeating: 0, count: Int(reader.info.frames) * reader.info.channels)
        let read = try samples.withUnsafeMutableBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return try reader.read(into: base, frames: Int(reader.info.frames), as: .float32)
        }
        return Array(samples.prefix(read * reader.info.channels))
    }

    @Test(arguments: [FileFormat.wav, .aiff, .flac, .ogg, .opus])
    func markersSurviveARenameAndARebuiltIndex(format: FileFormat) throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Talk", format: format, seconds: 1)
        let audio = try samples(memo.path)
        #expect(try library.addMarker(Marker(time: 0.5, label: "second question"), toMemo: memo.id) == .written)
        #expect(try library.addMarker(Marker(time: 0.125), toMemo: memo.id) == .written)
        let stored = try library.markers(ofMemo: memo.id)
        #expect(FileMarkers.read(from: memo.path, format: format)?.map(\.frame) == [6_000, 24_000])
        #expect(FileMarkers.read(from: memo.path, format: format)?.map(\.label) == ["", "second question"])
        #expect(try samples(memo.path) == audio, "the audio is unchanged")
        #expect(try library.memo(id: memo.id)?.size == FileSystem.size(of: memo.path), "the index has the file's new size")
        try library.rename(id: memo.id, to: "Talk, renamed")
        library.close()
        removeIndex(fixture)
        library = try fixture.open()
        #expect(library.maintenance.rebuiltIndex)
        #expect(try library.memo(id: memo.id)?.title == "Talk, renamed")
        #expect(try library.markers(ofMemo: memo.id) == stored)
        #expect(try library.integrityCheck() == "ok")
    }

    @Test func markersAddedWhileRecordingGoIntoTheFileWhenItIsSaved() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: "Live", settings: settings, at: LibraryFixture.start)
        #expect(try library.addMarker(Marker(time: 0.25, label: "now"), toMemo: recording.memo.id) == .indexOnly(
            reason: "it is still being recorded; the markers go into the file when it is saved"))
        try LibraryFixture.writeTone(to: recording.memo.path, settings: settings, metadata: recording.metadata, seconds: 0.5)
        let memo = try library.finishRecording(recording, peakDB: -6)
        #expect(FileMarkers.read(from: memo.path, format: .wav) == [FileMarker(frame: 12_000, label: "now")])
        library.close()
        removeIndex(fixture)
        library = try fixture.open()
        #expect(try library.markers(ofMemo: memo.id) == [Marker(time: 0.25, label: "now")])
    }

    @Test func markersOfARecordingWhoseProcessDiedGoIntoTheRecoveredFile() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: "Crashed", settings: settings, at: LibraryFixture.start)
        try LibraryFixture.writeTone(to: recording.memo.path, settings: settings, metadata: recording.metadata, seconds: 0.5)
        try library.addMarker(Marker(time: 0.1, label: "before the crash"), toMemo: recording.memo.id)
        recording.releaseLock()  // the recorder died
        var after = try fixture.open()
        #expect(try after.memo(id: recording.memo.id)?.state == .recovered)
        #expect(FileMarkers.read(from: recording.memo.path, format: .wav) == [FileMarker(frame: 4_800, label: "before the crash")])
        after.close()
        removeIndex(fixture)
        after = try fixture.open()
        #expect(try after.markers(ofMemo: recording.memo.id) == [Marker(time: 0.1, label: "before the crash")])
    }

    @Test func aConvertedExportCarriesTheMarkers() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Talk", format: .caf, seconds: 1)
        let outcome = try library.addMarker(Marker(time: 0.5, label: "mid"), toMemo: memo.id)
        #expect(outcome == .indexOnly(reason: "\(FileFormat.caf.displayName) files have no place for markers"))
        for format in [FileFormat.wav, .flac, .ogg] {
            let path = fixture.root.appendingPathComponent("talk." + (format.fileExtensions.first ?? "")).path
            try library.export(memo, to: path)
            #expect(FileMarkers.read(from: path, format: format) == [FileMarker(frame: 24_000, label: "mid")], "\(format)")
        }
    }

    @Test func aFileNotLaidOutForMarkersKeepsThemInTheIndexAndSaysWhy() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Talk", format: .wav, seconds: 1)
        let handle = try #require(FileHandle(forWritingAtPath: memo.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3]))  // bytes past the RIFF chunk
        try handle.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: memo.path))
        let outcome = try library.addMarker(Marker(time: 0.5), toMemo: memo.id)
        guard case .failed(let reason) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(reason.contains("not laid out for markers"))
        #expect(try library.markers(ofMemo: memo.id) == [Marker(time: 0.5)], "the index keeps it")
        #expect(try Data(contentsOf: URL(fileURLWithPath: memo.path)) == bytes, "the file is untouched")
    }

    @Test func anAdoptedFileBringsItsMarkersAndHostileLabelsAreDropped() throws {
        let fixture = try LibraryFixture()
        var library = try fixture.open()
        library.close()
        let path = fixture.folder + "/dropped.wav"
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 1)
        try LibraryFixture.writeTone(to: path, settings: settings, metadata: SoundFileMetadata(title: "Dropped"), seconds: 1)
        #expect(try FileMarkers.write(
            [FileMarker(frame: 4_800, label: "ok"), FileMarker(frame: 9_600, label: "bad\u{1B}[2J")], to: path, format: .wav))
        library = try fixture.open()
        let memo = try #require(try library.memos().first { $0.title == "Dropped" })
        #expect(try library.markers(ofMemo: memo.id) == [Marker(time: 0.1, label: "ok"), Marker(time: 0.2, label: "")])
    }
}
