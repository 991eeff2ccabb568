import TestSupport
import Foundation
import Testing

@testable import SoundFiles

@Suite struct ReaderErrorTests {
    @Test func missingFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("nothing.wav")
        let error = #expect(throws: SoundFileError.self) { try SoundFileReader(path: path) }
        #expect(error?.kind == .cannotOpen)
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("no such file") == true)
        #expect(error?.osErrorName == "ENOENT")
    }

    @Test func directory() throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: SoundFileError.self) { try SoundFileReader(path: directory.path) }
        #expect(error?.kind == .cannotOpen)
        #expect(error?.description.contains("is a directory") == true)
    }

    @Test func zeroLengthFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("empty.wav")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = #expect(throws: SoundFileError.self) { try SoundFileReader(path: path) }
        #expect(error?.kind == .corrupt)
        #expect(error?.description.contains("empty (0 bytes)") == true)
        #expect(throws: SoundFileError.self) { try SoundFileRecovery.repair(path: path) }
    }

    @Test func textFileNamedWAV() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("notes.wav")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("shopping list: eggs, milk\n".utf8)))
        let error = #expect(throws: SoundFileError.self) { try SoundFileReader(path: path) }
        #expect(error?.kind == .unsupported)
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("not a sound file") == true)
        #expect(error?.libraryMessage?.isEmpty == false)
    }

    @Test func headerOnlyWAVReadsAsEmpty() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.wav(in: directory, frames: 48000)
        let headerSize = try Self.dataOffset(of: path)
        try Self.truncate(path, to: headerSize)
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.frames == 0)
        #expect(try Audio.readAll(reader, as: .int16, Int16.self).isEmpty)
    }

    @Test func wavCutMidDataReadsWhatIsThere() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.wav(in: directory, frames: 48000)
        let headerSize = try Self.dataOffset(of: path)
        // 12000 frames and half a frame more: the half frame is dropped.
        try Self.truncate(path, to: headerSize + 12000 * 4 + 2)
        let reader = try SoundFileReader(path: path)
        let samples = try Audio.readAll(reader, as: .int16, Int16.self)
        #expect(samples.count / 2 >= 12000)
        #expect(Array(samples.prefix(24000)) == Signal.int16(frames: 12000, channels: 2, sampleRate: 48000))

        let repaired = try SoundFileRecovery.repair(path: path)
        #expect(repaired.frames == 12000)
        #expect(try Sox.duration(of: path).map { abs($0 - 0.25) < 0.001 } == true)
    }

    // MARK: Helpers

    static func wav(in directory: TemporaryDirectory, frames: Int) throws -> String {
        let path = directory.file("memo.wav")
        let writer = try SoundFileWriter(path: path, settings: RecordingSettings(format: .wav))
        try Audio.write(writer, frames: frames, as: .int16)
        try writer.close()
        return path
    }

    /// Offset of the first byte after the "data" chunk header.
    static func dataOffset(of path: String) throws -> UInt64 {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let range = try #require(bytes.range(of: Data("data".utf8)))
        return UInt64(range.upperBound - bytes.startIndex + 4)
    }

    static func truncate(_ path: String, to size: UInt64) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()
    }
}

/// sox as an independent reader of headers (it trusts them, unlike libsndfile).
enum Sox {
    /// `sox --i -D path`: the duration the header claims, or `nil` if sox is missing or fails.
    static func duration(of path: String) throws -> Double? {
        guard Tool.exists("/usr/bin/sox") else { return nil }
        let run = try Tool.run("/usr/bin/sox", ["--i", "-D", path])
        guard run.status == 0 else { return nil }
        return Double(run.text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

@Suite struct ReaderConversionTests {
    /// A float file read as integers comes back at full scale (libsndfile's default would
    /// round a ±1.0 signal to 0 and ±1).
    @Test(arguments: [SampleFormat.int16, .int32])
    func floatFilesReadAsIntegersAreScaled(sampleFormat: SampleFormat) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("float-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, encoding: .float, sampleRate: 48_000, channels: 1))
        let samples: [Float] = [0.5, -0.5, 0.25, 0]
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: samples.count, sampleFormat: .float32)
        }
        try writer.close()
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        var read = [Int32](repeating: 0, count: 4)
        var short = [Int16](repeating: 0, count: 4)
        if sampleFormat == .int16 {
            _ = try short.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return try reader.read(into: base, frames: 4, as: .int16)
            }
            #expect(abs(Int(short[0]) - 16_384) <= 1)
            #expect(abs(Int(short[1]) + 16_384) <= 1)
            #expect(abs(Int(short[2]) - 8_192) <= 1)
        } else {
            _ = try read.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return try reader.read(into: base, frames: 4, as: .int32)
            }
            #expect(abs(Int(read[0]) - 1_073_741_824) <= 256)
            #expect(read[3] == 0)
        }
    }
}
