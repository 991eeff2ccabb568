import TestSupport
import Foundation
import Testing

@testable import SoundFiles

/// kill -9 simulated by copying the files on disk while the writer is still open.
///
/// libsndfile writes with plain write(2) and keeps no stdio buffer, so the bytes on disk while the
/// writer is open are exactly what a killed process leaves; whatever the encoders still hold in
/// memory is lost in both cases.
@Suite struct CrashSafetyTests {
    /// Frames every format may lose: a crash loses at most the last 0.5 s.
    static let allowedLoss: Int64 = 24000

    static let formatsAndEncodings: [RoundTripCase] = RoundTripCase.all.filter { $0.fed == .float32 }

    @Test(arguments: formatsAndEncodings)
    func copyWhileOpenIsRepairedWithAtMostHalfASecondLost(_ testCase: RoundTripCase) throws {
        let format = testCase.format
        let directory = try TemporaryDirectory()
        let crashed = try TemporaryDirectory()
        let name = "memo." + (format.fileExtensions.first ?? "x")
        let settings = RecordingSettings(format: format, encoding: testCase.encoding, sampleRate: 48000, channels: 2)
        let writer = try SoundFileWriter(path: directory.file(name), settings: settings, metadata: .init(title: "Kept"))
        let written = 96000
        try Audio.write(writer, frames: written, as: settings.preferredSampleFormat, chunk: 960)

        let copy = crashed.file(name)
        if settings.crashSafety == .intermediate {
            try FileManager.default.copyItem(
                atPath: writer.recordingPath, toPath: SoundFileRecovery.intermediatePath(for: copy))
            try FileManager.default.copyItem(
                atPath: IntermediateRecipe.path(for: writer.path), toPath: IntermediateRecipe.path(for: copy))
        } else {
            try FileManager.default.copyItem(atPath: writer.path, toPath: copy)
        }
        try writer.close()

        let info = try SoundFileRecovery.repair(path: copy)
        let lost = Int64(written) - info.frames
        #expect(info.format == format)
        #expect(info.encoding == testCase.encoding)
        #expect(info.sampleRate == 48000)
        #expect(info.channels == 2)
        #expect(lost <= Self.allowedLoss, "\(format.rawValue) lost \(lost) frames")
        #expect(lost >= -RoundTripTests.frameTolerance(settings.encoding))
        let reader = try SoundFileReader(path: copy)
        let decoded = try Audio.readAll(reader, as: .float32, Float.self)
        #expect(Int64(decoded.count / 2) == info.frames)
        #expect(crashed.contents == [name], "intermediate removed after repair")
        if settings.crashSafety == .intermediate {
            #expect(reader.metadata.title == "Kept", "tags restored from the recipe")
        }
        print("kill -9 loss, \(testCase.testDescription): \(lost) frames (\(Double(lost) / 48.0) ms)")
    }

    /// While a WAV is being written in 10 ms writes (what a device period delivers), the sizes in
    /// its header on disk trail the audio by less than 0.25 s and never claim more than the file
    /// holds; the header is rewritten every 0.25 s of audio, not after every write.
    @Test func wavHeaderOnDiskTrailsTheAudioByLessThanAQuarterSecond() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("memo.wav")
        let writer = try SoundFileWriter(path: path, settings: RecordingSettings(format: .wav, encoding: .pcm16))
        let interval = try #require(writer.headerUpdateInterval)
        #expect(interval == 12000)
        var declaredSizes: Set<UInt32> = []
        for chunk in 0..<100 {
            try Audio.write(writer, frames: 480, as: .int16, chunk: 480, startFrame: chunk * 480)
            let written = (chunk + 1) * 480
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let dataStart = try #require(bytes.range(of: Data("data".utf8))).upperBound + 4
            let riffSize = Self.littleEndian32(bytes, at: 4)
            let dataSize = Self.littleEndian32(bytes, at: dataStart - 4)
            let declared = Int(dataSize) / 4
            #expect(written - declared < Int(interval), "after \(written) frames the header says \(declared)")
            #expect(declared <= written)
            #expect(Int(riffSize) == dataStart + Int(dataSize) - 8, "RIFF size agrees with the data size")
            declaredSizes.insert(dataSize)
        }
        // 48 000 frames in 480-frame writes: rewritten after the first, then at 12 480, 24 480 and 36 480.
        let expected: Set<UInt32> = [1_920, 49_920, 97_920, 145_920]  // bytes: 4 per stereo pcm16 frame
        #expect(declaredSizes == expected, "\(declaredSizes.sorted())")
        try writer.close()
        let closed = try Data(contentsOf: URL(fileURLWithPath: path))
        let dataStart = try #require(closed.range(of: Data("data".utf8))).upperBound + 4
        #expect(Self.littleEndian32(closed, at: dataStart - 4) == 48000 * 4, "close writes the final sizes")
    }

    private static func littleEndian32(_ bytes: Data, at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[bytes.startIndex + offset + $1]) << (8 * $1) }
    }

    @Test func staleWAVHeaderIsRewrittenSoSoxReadsIt() throws {
        let directory = try TemporaryDirectory()
        let path = try ReaderErrorTests.wav(in: directory, frames: 48000)
        let dataOffset = try ReaderErrorTests.dataOffset(of: path)
        // What arecord leaves after kill -9: RIFF and data sizes that claim about 2 GiB.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 4)
        try handle.write(contentsOf: Data([0xF8, 0xFF, 0xFF, 0x7F]))
        try handle.seek(toOffset: dataOffset - 4)
        try handle.write(contentsOf: Data([0xF0, 0xFF, 0xFF, 0x7F]))
        try handle.close()
        #expect(try Sox.duration(of: path).map { $0 > 100 } == true, "sox trusts the stale header")

        let info = try SoundFileRecovery.repair(path: path)
        #expect(info.frames == 48000)
        #expect(try Sox.duration(of: path) == 1.0)
        let samples = try Audio.readAll(try SoundFileReader(path: path), as: .int16, Int16.self)
        #expect(samples == Signal.int16(frames: 48000, channels: 2, sampleRate: 48000))
    }

    @Test func zeroSizedWAVHeaderIsRewritten() throws {
        let directory = try TemporaryDirectory()
        let path = try ReaderErrorTests.wav(in: directory, frames: 4800)
        let dataOffset = try ReaderErrorTests.dataOffset(of: path)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: dataOffset - 4)
        try handle.write(contentsOf: Data([0, 0, 0, 0]))
        try handle.close()
        #expect(try SoundFileRecovery.repair(path: path).frames == 4800)
        #expect(try Sox.duration(of: path) == 0.1)
    }

    @Test func finishedFilesAreLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let path = try ReaderErrorTests.wav(in: directory, frames: 4800)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try SoundFileRecovery.repair(path: path).frames == 4800)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func intermediateWithoutRecipeIsEncodedByExtension() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("memo.mp3")
        let writer = try SoundFileWriter(path: path, settings: RecordingSettings(format: .mp3))
        try Audio.write(writer, frames: 48000, as: .float32)
        try FileManager.default.copyItem(
            atPath: writer.recordingPath, toPath: directory.file("copy.mp3.w64"))
        try writer.close()
        try FileManager.default.moveItem(
            atPath: directory.file("copy.mp3.w64"), toPath: SoundFileRecovery.intermediatePath(for: path))
        let info = try SoundFileRecovery.repair(path: path)
        #expect(info.format == .mp3)
        #expect(abs(info.frames - 48000) <= 1152)
    }
}
