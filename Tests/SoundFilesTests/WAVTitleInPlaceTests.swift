import TestSupport
import Foundation
import Testing

@testable import SoundFiles

/// `WAVTitleInPlace`: a WAV's title changed without copying it; a crash after any step leaves
/// a file every reader takes, with its audio, and the old or the new title.
@Suite struct WAVTitleInPlaceTests {
    static let metadata = SoundFileMetadata(title: "Old", comment: "VoiceMemo memo 7", date: "2026-11-29T14:03:12Z")

    private func makeWAV(in directory: TemporaryDirectory, frames: Int = 48_001, channels: Int = 1, encoding: Encoding = .pcm24) throws -> String {
        let path = directory.file("a.wav")
        let settings = RecordingSettings(format: .wav, encoding: encoding, sampleRate: 48000, channels: channels)
        let writer = try SoundFileWriter(path: path, settings: settings, metadata: Self.metadata)
        try Audio.write(writer, frames: frames, as: .float32)
        try writer.close()
        return path
    }

    @Test(arguments: [1, 2, 3])
    func aCrashAfterAnyStepLeavesAReadableFileWithOneOfTheTitles(lastStep: Int) throws {
        let directory = try TemporaryDirectory()
        // 48 001 mono 24-bit frames: an odd data size, so its pad byte is in play.
        let path = try makeWAV(in: directory)
        let before = try Audio.readAll(SoundFileReader(path: path), as: .int32, Int32.self)
        #expect(try WAVTitleInPlace.retitle(path, title: "New", lastStep: lastStep))
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.frames == 48_001)
        #expect(try Audio.readAll(reader, as: .int32, Int32.self) == before, "step \(lastStep): the audio is whole")
        let title = reader.metadata.title
        #expect(title == "Old" || title == "New", "step \(lastStep): \(String(describing: title))")
        if lastStep == 3 { #expect(title == "New") }
        #expect(reader.metadata.comment == Self.metadata.comment)
        // Whatever step it stopped at, the next rename finds a file it can change.
        #expect(try WAVTitleInPlace.retitle(path, title: "Again"))
        #expect(try SoundFileReader(path: path).metadata.title == "Again")
        let sox = try Tool.run("/usr/bin/sox", ["--i", "-s", path])
        let samples = sox.text
        #expect(sox.status == 0 && samples.trimmingCharacters(in: .whitespacesAndNewlines) == "48001", "sox: \(samples)")
    }

    @Test func aFileNotLaidOutForItIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let path = try makeWAV(in: directory)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.append(contentsOf: [1, 2, 3])  // trailing bytes the RIFF size does not cover
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(!TitleRewrite.canRetitleInPlace(path))
        #expect(try !WAVTitleInPlace.retitle(path, title: "New"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "unchanged")
        let flac = directory.file("b.flac")
        let writer = try SoundFileWriter(path: flac, settings: RecordingSettings(format: .flac, sampleRate: 48000, channels: 1), metadata: Self.metadata)
        try Audio.write(writer, frames: 100, as: .float32)
        try writer.close()
        #expect(!TitleRewrite.canRetitleInPlace(flac))
    }

    @Test func aTitleIsAddedToAWAVWithoutTags() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("plain.wav")
        let writer = try SoundFileWriter(path: path, settings: RecordingSettings(format: .wav, sampleRate: 48000, channels: 2), metadata: SoundFileMetadata())
        try Audio.write(writer, frames: 4800, as: .float32)
        try writer.close()
        #expect(try WAVTitleInPlace.retitle(path, title: "Fresh 🎙️"))
        #expect(try SoundFileReader(path: path).metadata.title == "Fresh 🎙️")
    }
}
