import TestSupport
import CSndFile
import Foundation
import Testing

@testable import SoundFiles

/// WAV past 4 GiB (RF64) and the 4 GiB limit of AIFF, on files whose audio past the first
/// second is a hole (sparse): what was written after the last header rewrite is a known
/// signal at the very end, so every reader can be asked for the last frames of a 4.3 GB file
/// in milliseconds. `FourGiBRecordingTests` (end-to-end) records the real thing.
@Suite struct RF64Tests {
    /// 22 400 s of 48 kHz stereo pcm16: 4 300 800 000 bytes of audio, past 4 GiB.
    static let longFrames: Int64 = 22_400 * 48_000
    /// The last second of it, written for real.
    static let tailFrames = 48_000

    @Test func aShortWAVStaysRIFFWithRoomForItsRF64Header() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("short.wav")
        let writer = try SoundFileWriter(path: path, settings: RecordingSettings(format: .wav, encoding: .pcm16))
        try Audio.write(writer, frames: 48_000, as: .int16)
        try writer.close()
        let head = try Self.head(of: path)
        #expect(IFFChunksInPlace.ascii(head, 0) == "RIFF")
        #expect(IFFChunksInPlace.ascii(head, 12) == "JUNK", "libsndfile keeps room for ds64 right after WAVE")
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.format == .wav && reader.info.encoding == .pcm16 && reader.info.frames == 48_000)
        #expect(try Sox.duration(of: path) == 1.0)
        #expect(try Tools.ffprobeFrames(path) == 48_000)
    }

    @Test(arguments: [Encoding.pcm16, .pcm24, .pcm32, .float, .ulaw, .alaw])
    func anRF64FileReadsAsAWAV(encoding: Encoding) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.rf64(in: directory, encoding: encoding)
        #expect(IFFChunksInPlace.ascii(try Self.head(of: path), 0) == "RF64")
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.format == .wav, "libsndfile calls it RF64; it is a .wav memo")
        #expect(reader.info.encoding == encoding)
        #expect(reader.info.frames == 4800)
    }

    /// Killed between passing 4 GiB and the header rewrite that would have made it RF64: a
    /// RIFF header (libsndfile's, with its JUNK and fact) over 4.3 GB of audio.
    @Test func aRIFFKilledAfterPassingFourGiBBecomesRF64ReadableToItsLastFrame() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crossed.wav")
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, encoding: .pcm16), metadata: .init(title: "Long"))
        try Audio.write(writer, frames: 48_000, as: .int16)
        try writer.close()
        try Self.extend(path, toFrames: Self.longFrames)
        #expect(try SoundFileReader(path: path).info.frames == 48_000, "the header still says one second")

        let info = try SoundFileRecovery.repair(path: path)
        #expect(info.frames == Self.longFrames)
        try Self.expectEveryReaderReadsTheTail(of: path)
        let reader = try SoundFileReader(path: path)
        #expect(reader.metadata.title == "Long", "the tags before the audio are kept")
        #expect(try SoundFileRecovery.repair(path: path).frames == Self.longFrames, "a second repair changes nothing")
    }

    /// Killed after the header was rewritten as RF64: ds64's sizes trail the audio.
    @Test func aStaleRF64IsRepairedToItsLastFrame() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.rf64(in: directory, encoding: .pcm16, frames: 48_000)
        try Self.extend(path, toFrames: Self.longFrames)
        #expect(try SoundFileReader(path: path).info.frames == 48_000, "ds64 still says one second")

        let info = try SoundFileRecovery.repair(path: path)
        #expect(info.frames == Self.longFrames)
        try Self.expectEveryReaderReadsTheTail(of: path)
    }

    /// A title goes into an RF64 file in place, past its 4 GiB of audio; a crash after any
    /// step of the replacement leaves every frame and the old or the new title.
    @Test(arguments: [1, 2, 3])
    func aTitleIsWrittenIntoAnRF64InPlace(lastStep: Int) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.longRF64(in: directory)
        #expect(TitleRewrite.canRetitleInPlace(path))
        #expect(try WAVTitleInPlace.retitle(path, title: "Day-long meeting", lastStep: lastStep))
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.frames == Self.longFrames)
        let title = try #require(reader.metadata.title)
        #expect(lastStep == 1 ? ["A title", "Day-long meeting"].contains(title) : title == "Day-long meeting")
        try Self.expectEveryReaderReadsTheTail(of: path)
        if lastStep == 3 {
            #expect(try Tools.ffprobeTitle(path) == "Day-long meeting")
        }
    }

    /// Markers go into an RF64 file in place the same way (`cue ` and `LIST`/`adtl`).
    @Test(arguments: [1, 2, 3])
    func markersAreWrittenIntoAnRF64InPlace(lastStep: Int) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.longRF64(in: directory)
        let markers = [FileMarker(frame: 48_000, label: "start"), FileMarker(frame: Self.longFrames - 100, label: "end")]
        #expect(try FileMarkers.write(markers, to: path, format: .wav, lastStep: lastStep))
        #expect(FileMarkers.read(from: path, format: .wav) == (lastStep == 1 ? [] : markers))
        #expect(try SoundFileReader(path: path).info.frames == Self.longFrames)
        try Self.expectEveryReaderReadsTheTail(of: path)
    }

    @Test func aiffAndIMAADPCMWAVStopAtFourGiB() throws {
        #expect(RecordingSettings(format: .aiff, encoding: .pcm16).maximumFrames == 1_073_479_681)
        #expect(RecordingSettings(format: .aiff, encoding: .pcm24).maximumFrames == 715_653_121)
        #expect(RecordingSettings(format: .wav, encoding: .imaAdpcm).maximumFrames == 4_279_242_240)
        for encoding in [Encoding.pcm16, .pcm24, .pcm32, .float, .ulaw, .alaw] {
            #expect(RecordingSettings(format: .wav, encoding: encoding).maximumFrames == nil)
        }
        #expect(RecordingSettings(format: .caf).maximumFrames == nil)
        #expect(RecordingSettings(format: .flac).maximumFrames == nil)
    }

    /// The limit stops the writer exactly there, with the frames before it in a finished file.
    @Test func aWriterAtItsFormatsLimitKeepsEveryFrameBeforeIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("limit.aiff")
        let writer = try SoundFileWriter(path: path, settings: RecordingSettings(format: .aiff, encoding: .pcm16))
        writer.limitFrames(to: 10_000)
        let error = #expect(throws: SoundFileError.self) { try Audio.write(writer, frames: 14_400, as: .int16) }
        #expect(error?.kind == .formatSizeLimit)
        #expect(error?.description.contains("4 GiB") == true, "\(String(describing: error))")
        #expect(writer.framesWritten == 10_000)
        try writer.close()
        let samples = try Audio.readAll(try SoundFileReader(path: path), as: .int16, Int16.self)
        #expect(samples == Signal.int16(frames: 10_000, channels: 2, sampleRate: 48_000))
        #expect(try Tool.output("/usr/bin/sox", ["--i", "-s", path]) == Data("10000\n".utf8))
    }

    // MARK: Files

    /// An RF64 file as libsndfile's RF64 writer makes it without the downgrade (the header it
    /// rewrites a WAV into past 4 GiB): `ds64`, `fmt `, `LIST`, `data` of 0xFFFFFFFF.
    static func rf64(in directory: TemporaryDirectory, encoding: Encoding, frames: Int = 4800) throws -> String {
        let path = directory.file("rf64-\(encoding.rawValue).wav")
        var info = SF_INFO()
        info.samplerate = 48_000
        info.channels = 2
        info.format = Int32(SF_FORMAT_RF64) | (FormatCodes.code(format: .wav, encoding: encoding) & Int32(SF_FORMAT_SUBMASK))
        let handle = try SndFileHandle.open(path: path, mode: .write, info: info).get()
        handle.setString("A title", for: SF_STR_TITLE)
        let samples = Signal.int16(frames: frames, channels: 2, sampleRate: 48_000)
        let short = samples.withUnsafeBytes { raw in
            raw.baseAddress.flatMap { handle.write($0, frames: frames, sampleFormat: .int16) }
        }
        #expect(short == nil)
        #expect(handle.close() == nil)
        return path
    }

    /// A repaired RF64 of `longFrames` frames.
    static func longRF64(in directory: TemporaryDirectory) throws -> String {
        let path = try rf64(in: directory, encoding: .pcm16, frames: 48_000)
        try extend(path, toFrames: longFrames)
        #expect(try SoundFileRecovery.repair(path: path).frames == longFrames)
        return path
    }

    /// Makes the file `frames` long (a hole), its last second the test signal from frame 0.
    ///
    /// sox 14.4.2 looks for a `LIST` chunk where the audio would end if its size were cut to
    /// 32 bits, chunk header after chunk header. In real audio the sizes it reads there throw
    /// it past the end at once; in this hole of zeros it walks 8 bytes at a time, a minute. So
    /// the 8 bytes there hold what ends its walk: a `JUNK` header claiming more than the rest
    /// of the file (to every other reader, two frames of audio before the tail).
    static func extend(_ path: String, toFrames frames: Int64) throws {
        let dataStart = try ReaderErrorTests.dataOffset(of: path)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        let dataSize = UInt64(frames) * 4
        try handle.truncate(atOffset: dataStart + dataSize)
        if dataSize > UInt64(UInt32.max) {
            try handle.seek(toOffset: dataStart + dataSize % (1 << 32))
            try handle.write(contentsOf: Data("JUNK".utf8) + Data([0xF0, 0xFF, 0xFF, 0xFF]))
        }
        try handle.seek(toOffset: dataStart + UInt64(frames - Int64(tailFrames)) * 4)
        try handle.write(contentsOf: tailBytes)
    }

    static let tailBytes = Signal.int16(frames: tailFrames, channels: 2, sampleRate: 48_000)
        .withUnsafeBytes { Data($0) }

    /// libsndfile, sox and ffmpeg each read `longFrames` frames, the last second the signal.
    static func expectEveryReaderReadsTheTail(of path: String) throws {
        let reader = try SoundFileReader(path: path)
        try reader.seek(toFrame: longFrames - Int64(tailFrames))
        var tail = [Int16](repeating: 0, count: tailFrames * 2)
        let read = try tail.withUnsafeMutableBytes { try reader.read(into: $0.start(), frames: tailFrames, as: .int16) }
        #expect(read == tailFrames)
        #expect(tail.withUnsafeBytes { Data($0) } == tailBytes, "libsndfile reads the last second")
        let lastSecond = String(longFrames / 48_000 - 1)
        #expect(try Tool.output("/usr/bin/sox", [path, "-t", "raw", "-", "trim", lastSecond]) == tailBytes, "sox reads the last second")
        #expect(try Tool.output("/usr/bin/sox", ["--i", "-s", path]) == Data("\(longFrames)\n".utf8))
        #expect(
            try Tool.output("/usr/bin/ffmpeg", ["-v", "error", "-ss", lastSecond, "-i", path, "-f", "s16le", "-"]) == tailBytes,
            "ffmpeg reads the last second")
        #expect(try Tools.ffprobeFrames(path) == longFrames)
    }

    static func head(of path: String) throws -> Data {
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        return try #require(try handle.read(upToCount: 64))
    }
}

/// What ffprobe says of a file.
enum Tools {
    /// The stream's length in frames as ffprobe reads it.
    static func ffprobeFrames(_ path: String) throws -> Int64? {
        let text = try Tool.output("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=duration_ts", "-of", "csv=p=0", path])
        return Int64(String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func ffprobeTitle(_ path: String) throws -> String {
        let text = try Tool.output("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format_tags=title", "-of", "csv=p=0", path])
        return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
