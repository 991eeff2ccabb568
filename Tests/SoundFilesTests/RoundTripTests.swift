import TestSupport
import Foundation
import Testing

@testable import SoundFiles

/// One format × encoding × fed sample format.
struct RoundTripCase: CustomTestStringConvertible, Sendable {
    var format: FileFormat
    var encoding: Encoding
    var fed: SampleFormat

    var testDescription: String { "\(format.rawValue)/\(encoding.rawValue) fed \(fed.rawValue)" }

    static let all: [RoundTripCase] = FileFormat.allCases.flatMap { format in
        format.encodings.flatMap { encoding in
            SampleFormat.allCases.map { RoundTripCase(format: format, encoding: encoding, fed: $0) }
        }
    }
}

@Suite struct RoundTripTests {
    /// Frames the lossy codecs may add or drop. libsndfile 1.2.0 trims Opus pre-skip and reads the
    /// LAME tag of MP3, so all three came back exact in our runs; one codec block is allowed
    /// (Vorbis 2048, MP3 1152, Opus 960 frames) in case an encoder pads. IMA ADPCM pads the last
    /// block with silence: 48000 frames come back as 48984 (blocks of 2041 frames at 48 kHz stereo).
    static func frameTolerance(_ encoding: Encoding) -> Int64 {
        switch encoding {
        case .imaAdpcm: 2041
        case .vorbis: 2048
        case .mp3: 1152
        case .opus: 960
        default: 0
        }
    }

    @Test(arguments: RoundTripCase.all)
    func writesAndReadsBack(_ testCase: RoundTripCase) throws {
        let directory = try TemporaryDirectory()
        let settings = RecordingSettings(
            format: testCase.format, encoding: testCase.encoding, sampleRate: 48000, channels: 2, quality: .high)
        let path = directory.file("memo." + (testCase.format.fileExtensions.first ?? "x"))
        let frames = 48000
        let writer = try SoundFileWriter(path: path, settings: settings)
        try Audio.write(writer, frames: frames, as: testCase.fed)
        #expect(writer.framesWritten == Int64(frames))
        try writer.close()
        try writer.close()
        #expect(directory.contents == [URL(fileURLWithPath: path).lastPathComponent], "no intermediate left")

        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        #expect(reader.info.sampleRate == 48000)
        #expect(reader.info.channels == 2)
        #expect(reader.info.format == testCase.format)
        #expect(reader.info.encoding == testCase.encoding)
        #expect(reader.info.frames >= Int64(frames) - Self.frameTolerance(testCase.encoding))
        #expect(reader.info.frames <= Int64(frames) + Self.frameTolerance(testCase.encoding))
        #expect(!reader.info.formatDescription.isEmpty)

        if testCase.encoding.isLossless && testCase.fed == settings.preferredSampleFormat {
            try expectIdentical(reader, fed: testCase.fed, frames: frames)
        } else {
            let decoded = try Audio.readAll(reader, as: .float32, Float.self)
            #expect(abs(Int64(decoded.count / 2) - Int64(frames)) <= Self.frameTolerance(testCase.encoding))
            let original = Signal.float32(frames: frames, channels: 2, sampleRate: 48000)
            if testCase.encoding.isLossless || [.ulaw, .alaw].contains(testCase.encoding) {
                let limit: Float = testCase.encoding.isLossless ? 1e-4 : 0.03
                let worst = zip(decoded, original).map { abs($0 - $1) }.max() ?? 1
                #expect(worst < limit, "largest sample error \(worst)")
            } else {
                let ratio = Signal.rms(decoded) / Signal.rms(original)
                #expect(ratio > 0.8 && ratio < 1.2, "RMS ratio \(ratio)")
            }
        }
    }

    private func expectIdentical(_ reader: SoundFileReader, fed: SampleFormat, frames: Int) throws {
        switch fed {
        case .int16:
            let decoded = try Audio.readAll(reader, as: .int16, Int16.self)
            #expect(decoded == Signal.int16(frames: frames, channels: 2, sampleRate: 48000))
        case .int32:
            let decoded = try Audio.readAll(reader, as: .int32, Int32.self)
            #expect(decoded == Signal.int32(frames: frames, channels: 2, sampleRate: 48000))
        case .float32:
            let decoded = try Audio.readAll(reader, as: .float32, Float.self)
            #expect(decoded == Signal.float32(frames: frames, channels: 2, sampleRate: 48000))
        }
    }

    @Test(arguments: [FileFormat.mp3, .ogg, .flac])
    func writesAt44100Hz(format: FileFormat) throws {
        let directory = try TemporaryDirectory()
        let settings = RecordingSettings(format: format, sampleRate: 44100, channels: 1)
        let path = directory.file("memo." + (format.fileExtensions.first ?? "x"))
        let writer = try SoundFileWriter(path: path, settings: settings)
        try Audio.write(writer, frames: 44100, as: settings.preferredSampleFormat)
        try writer.close()
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.sampleRate == 44100)
        #expect(reader.info.channels == 1)
        #expect(abs(reader.info.frames - 44100) <= Self.frameTolerance(settings.encoding))
    }

    @Test func seeksAndReadsFromTheMiddle() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("memo.wav")
        let writer = try SoundFileWriter(path: path, settings: RecordingSettings(format: .wav))
        try Audio.write(writer, frames: 48000, as: .int16)
        try writer.close()
        let reader = try SoundFileReader(path: path)
        try reader.seek(toFrame: 24000)
        let rest = try Audio.readAll(reader, as: .int16, Int16.self)
        #expect(rest == Signal.int16(frames: 24000, channels: 2, sampleRate: 48000, startFrame: 24000))
        #expect(throws: SoundFileError.self) { try reader.seek(toFrame: 96000) }
        reader.close()
        #expect(throws: SoundFileError.self) { try Audio.readAll(reader, as: .int16, Int16.self) }
    }
}
