import TestSupport
import Foundation
import Testing

@testable import SoundFiles

/// Encoding a W64 intermediate while it is written (what a recording's encoder thread does), and
/// recovery encoding what a killed process left, also when the recovery itself is interrupted.
@Suite struct IntermediateEncodingTests {
    static let lossy: [FileFormat] = [.mp3, .ogg]

    /// The encoder follows the writer: after every write it encodes exactly what the writer has
    /// written, the final file grows while the intermediate is open, and at the end the final
    /// file holds every frame (within the codec's padding) and the intermediate is gone.
    @Test(arguments: lossy)
    func encodesWhatTheWriterHasWrittenWhileItWrites(_ format: FileFormat) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("memo.\(format.rawValue)")
        let settings = RecordingSettings(format: format, sampleRate: 48000, channels: 2)
        let writer = try SoundFileWriter(path: path, settings: settings, metadata: .init(title: "Followed"))
        let encoding = try #require(try writer.startEncoding())
        #expect(encoding.sampleRate == 48000 && encoding.channels == 2)
        var sizes: [Int64] = []
        for second in 0..<4 {
            try Audio.write(writer, frames: 48000, as: .float32, chunk: 960, startFrame: second * 48000)
            while try encoding.encodeSlice(upTo: writer.framesWritten) > 0 {}
            #expect(encoding.framesEncoded == writer.framesWritten, "caught up after second \(second + 1)")
            sizes.append(Self.size(of: path))
        }
        #expect(sizes.last ?? 0 > sizes.first ?? 0, "the final file grows while recording: \(sizes)")
        try writer.close(encodingIntermediate: false)
        #expect(FileManager.default.fileExists(atPath: writer.recordingPath), "kept until the final file is complete")
        #expect(try encoding.encodeSlice(upTo: writer.framesWritten) == 0)
        try encoding.finish()
        #expect(!FileManager.default.fileExists(atPath: writer.recordingPath))
        #expect(!FileManager.default.fileExists(atPath: IntermediateRecipe.path(for: path)))
        #expect(directory.contents == ["memo.\(format.rawValue)"])
        let reader = try SoundFileReader(path: path)
        let decoded = Int64(try Audio.readAll(reader, as: .float32, Float.self).count / 2)
        #expect(abs(decoded - 4 * 48000) <= RoundTripTests.frameTolerance(settings.encoding), "\(decoded) frames")
        #expect(reader.metadata.title == "Followed")
    }

    /// The header of an intermediate being written says nothing of its length; the layout comes
    /// from the fmt chunk and the frames from the file's length, and once closed from the header.
    @Test(arguments: [(Encoding.mp3, IntermediateLayout.Sample.float32), (.alac16, .int16), (.alac24, .int24)])
    func readsTheLayoutOfAnOpenAndOfAClosedIntermediate(_ encoding: Encoding, _ sample: IntermediateLayout.Sample) throws {
        let directory = try TemporaryDirectory()
        let format: FileFormat = encoding == .mp3 ? .mp3 : .caf
        let path = directory.file("memo.\(format.rawValue)")
        let settings = RecordingSettings(format: format, encoding: encoding, sampleRate: 44100, channels: 2)
        let writer = try SoundFileWriter(path: path, settings: settings)
        try Audio.write(writer, frames: 10000, as: .float32, chunk: 1000)
        let descriptor = open(writer.recordingPath, O_RDONLY)
        defer { close(descriptor) }
        let open = try IntermediateLayout.read(descriptor: descriptor, path: writer.recordingPath)
        #expect(open.sample == sample && open.channels == 2 && open.sampleRate == 44100)
        #expect(open.frames(inFileOfLength: IntermediateEncoding.length(of: descriptor)) == 10000)
        try writer.close(encodingIntermediate: false)
        let closed = try IntermediateLayout.read(descriptor: descriptor, path: writer.recordingPath)
        #expect(closed.dataOffset == open.dataOffset)
        #expect(closed.declaredDataBytes == Int64(10000 * closed.bytesPerFrame))
        #expect(closed.frames(inFileOfLength: IntermediateEncoding.length(of: descriptor) + 100) == 10000)
    }

    /// ALAC's 24-bit intermediate is widened to 32 bits on the way: bit-exact.
    @Test func alac24IsEncodedBitExactFromItsPackedIntermediate() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("memo.caf")
        let settings = RecordingSettings(format: .caf, encoding: .alac24, sampleRate: 48000, channels: 2)
        let writer = try SoundFileWriter(path: path, settings: settings)
        let encoding = try #require(try writer.startEncoding())
        try Audio.write(writer, frames: 20000, as: .int32, chunk: 960)
        while try encoding.encodeSlice(upTo: writer.framesWritten) > 0 {}
        try writer.close(encodingIntermediate: false)
        try encoding.finish()
        let reader = try SoundFileReader(path: path)
        let decoded = try Audio.readAll(reader, as: .int32, Int32.self)
        #expect(decoded == Signal.int32(frames: 20000, channels: 2, sampleRate: 48000))
    }

    /// kill -9 while the encoder follows the writer leaves a partial final file beside the
    /// intermediate; recovery encodes the whole intermediate again, over the partial file.
    @Test(arguments: lossy)
    func aPartialFinalFileLeftByAKillIsEncodedAgainFromTheIntermediate(_ format: FileFormat) throws {
        let directory = try TemporaryDirectory()
        let crashed = try TemporaryDirectory()
        let name = "memo.\(format.rawValue)"
        let path = directory.file(name)
        let settings = RecordingSettings(format: format, sampleRate: 48000, channels: 2)
        let writer = try SoundFileWriter(path: path, settings: settings, metadata: .init(title: "Killed"))
        let encoding = try #require(try writer.startEncoding())
        try Audio.write(writer, frames: 96000, as: .float32, chunk: 960)
        while try encoding.encodeSlice(upTo: 48000) > 0 {}
        // What a killed process leaves: the files as they are on disk now.
        let copy = crashed.file(name)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: writer.recordingPath, toPath: SoundFileRecovery.intermediatePath(for: copy))
        try FileManager.default.copyItem(atPath: IntermediateRecipe.path(for: path), toPath: IntermediateRecipe.path(for: copy))
        encoding.abandon()
        try writer.close(encodingIntermediate: false)

        #expect(SoundFileRecovery.needsEncoding(path: copy))
        let info = try SoundFileRecovery.repair(path: copy)
        #expect(abs(info.frames - 96000) <= RoundTripTests.frameTolerance(settings.encoding), "\(info.frames) frames")
        #expect(crashed.contents == [name])
        #expect(try SoundFileReader(path: copy).metadata.title == "Killed")
    }

    /// A recovery whose encode is stopped (Ctrl-C, or kill -9 in the middle) keeps the
    /// intermediate; the next attempt finishes the memo whole.
    @Test(arguments: lossy)
    func anInterruptedRecoveryKeepsTheIntermediateAndTheNextOneFinishes(_ format: FileFormat) throws {
        let directory = try TemporaryDirectory()
        let name = "memo.\(format.rawValue)"
        let path = directory.file(name)
        let settings = RecordingSettings(format: format, sampleRate: 48000, channels: 1)
        let writer = try SoundFileWriter(path: path, settings: settings)
        try Audio.write(writer, frames: 48000 * 3, as: .float32, chunk: 960)
        let intermediate = directory.file(".memo.\(format.rawValue).partial.w64")
        let crashedCopy = directory.file("kept.w64")
        try FileManager.default.copyItem(atPath: writer.recordingPath, toPath: crashedCopy)
        try writer.close(encodingIntermediate: false)
        try FileManager.default.removeItem(atPath: intermediate)
        try FileManager.default.moveItem(atPath: crashedCopy, toPath: intermediate)

        var reports: [(Int64, Int64)] = []
        #expect {
            _ = try SoundFileRecovery.repair(path: path) { encoded, total in
                reports.append((encoded, total))
                return encoded < 48000
            }
        } throws: { ($0 as? SoundFileError)?.kind == .interrupted }
        let total: Int64 = 48000 * 3
        #expect(reports.allSatisfy { $0.1 == total }, "the total is the intermediate's frames")
        #expect(reports.last.map { $0.0 >= 48000 && $0.0 < 48000 + Int64(IntermediateEncoding.sliceFrames) * 2 } == true)
        #expect(FileManager.default.fileExists(atPath: intermediate), "kept for the next attempt")
        #expect(SoundFileRecovery.needsEncoding(path: path))

        let info = try SoundFileRecovery.repair(path: path)
        #expect(abs(info.frames - 48000 * 3) <= RoundTripTests.frameTolerance(settings.encoding), "\(info.frames) frames")
        #expect(!FileManager.default.fileExists(atPath: intermediate))
    }

    @Test func aFileThatIsNotW64IsRefusedNamingIt() throws {
        let directory = try TemporaryDirectory()
        let intermediate = directory.file(".memo.mp3.partial.w64")
        try Data("RIFF but not really a wave64 file at all, padding padding".utf8).write(to: URL(fileURLWithPath: intermediate))
        #expect {
            _ = try IntermediateEncoding(
                intermediate: intermediate, into: directory.file("memo.mp3"), settings: RecordingSettings(format: .mp3),
                metadata: .init())
        } throws: { error in
            guard let error = error as? SoundFileError else { return false }
            return error.kind == .corrupt && error.description.contains(intermediate)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("memo.mp3")), "no final file is created")
    }

    static func size(of path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
    }
}
