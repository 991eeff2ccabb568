import TestSupport
import Foundation
import Testing

@testable import SoundFiles

/// AAC in MP4 (`.m4a`): written through the W64 intermediate by FFmpeg's AAC encoder, read
/// back through FFmpeg, checked with `ffprobe`; files made by `ffmpeg` itself; bad files.
@Suite struct M4ATests {
    /// One AAC frame.
    static let aacFrame: Int64 = 1024

    /// 48 005 frames (not a whole number of AAC frames, nor of milliseconds): ffprobe reads
    /// AAC-LC with the title, its length within one AAC frame (the edit list makes it exact);
    /// our reader delivers exactly the frames written, close to the signal; nothing is left
    /// beside the file.
    @Test(arguments: [1, 2])
    func roundTripIsAACWithTheTitleAndTheLength(channels: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("memo.m4a")
        let frames = 48_005
        let settings = RecordingSettings(format: .m4a, sampleRate: 48000, channels: channels)
        #expect(settings.encoding == .aac)
        #expect(settings.crashSafety == .intermediate)
        let title = "Round trip 🎙️ «M4A»"
        let writer = try SoundFileWriter(
            path: path, settings: settings,
            metadata: SoundFileMetadata(title: title, comment: "VoiceMemo memo 7", date: "2026-11-29T14:03:12Z", software: "VoiceMemo test"))
        try Audio.write(writer, frames: frames, as: .float32, chunk: 4799)
        try writer.close()
        #expect(directory.contents == ["memo.m4a"], "no intermediate, recipe or temporary file left: \(directory.contents)")

        let probe = try FFprobe.run(path, entries: "stream=codec_name,profile,sample_rate,channels,duration_ts:format_tags")
        #expect(probe["codec_name"] == "aac", "\(probe)")
        #expect(probe["profile"] == "LC", "\(probe)")
        #expect(probe["sample_rate"] == "48000" && probe["channels"] == String(channels), "\(probe)")
        #expect(probe["TAG:title"] == title, "\(probe)")
        #expect(probe["TAG:comment"] == "VoiceMemo memo 7", "\(probe)")
        let probed = try #require(probe["duration_ts"].flatMap { Int64($0) }, "\(probe)")
        print("M4ATests: \(channels) channel(s): \(frames) frames written, ffprobe reads \(probed)")
        #expect(abs(probed - Int64(frames)) <= Self.aacFrame, "ffprobe: \(probed) frames")

        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        #expect(reader.info.format == .m4a && reader.info.encoding == .aac)
        #expect(reader.info.frames == Int64(frames))
        #expect(reader.info.channels == channels && reader.info.sampleRate == 48000)
        #expect(reader.metadata.title == title)
        #expect(reader.metadata.comment == "VoiceMemo memo 7")
        #expect(reader.metadata.date == "2026-11-29T14:03:12Z")
        #expect(reader.metadata.software == "VoiceMemo test")
        let decoded = try Audio.readAll(reader, as: .float32, Float.self)
        #expect(decoded.count == frames * channels)
        // What ffmpeg decodes (it does not trim the last frame's padding): the same samples, from
        // the same first frame.
        let reference = try FFprobe.decodedFloats(path)
        #expect(reference.count >= decoded.count, "ffmpeg decodes \(reference.count / channels) frames")
        let worst = zip(decoded, reference).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-6, "against ffmpeg's own decoding: largest difference \(worst)")
        let original = Signal.float32(frames: frames, channels: channels, sampleRate: 48000)
        let error = zip(decoded, original).map { Double($0 - $1) * Double($0 - $1) }.reduce(0, +) / Double(decoded.count)
        let errorDB = 10 * log10(max(error, 1e-20) / (Signal.rms(original) * Signal.rms(original)))
        // One AAC frame off would be about +3 dB.
        #expect(errorDB < -12, "decoded against the signal: \(errorDB) dB")
    }

    /// Reading from a seek gives the samples reading through gives, also as int16. Not to the
    /// bit: FFmpeg's AAC encoder codes noise-like bands as noise (PNS), which the decoder fills
    /// from a generator that a seek does not reset; differences stay under 1 % of full scale,
    /// where one sample off on this sine would be ≈ 3 %.
    @Test func seekingLandsOnTheFrame() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("memo.m4a")
        let writer = try SoundFileWriter(path: path, settings: RecordingSettings(format: .m4a, channels: 2))
        try Audio.write(writer, frames: 96_000, as: .int16)
        try writer.close()
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        let whole = try Audio.readAll(reader, as: .int16, Int16.self)
        #expect(whole.count == 96_000 * 2)
        for start in [0, 1, 30_001, 95_000] {
            try reader.seek(toFrame: Int64(start))
            let rest = try Audio.readAll(reader, as: .int16, Int16.self)
            #expect(rest.count == (96_000 - start) * 2, "from \(start)")
            let worst = zip(rest, whole[(start * 2)...]).map { abs(Int($0) - Int($1)) }.max() ?? 0
            let at = zip(rest, whole[(start * 2)...]).map { abs(Int($0) - Int($1)) }.firstIndex(of: worst) ?? -1
            #expect(worst <= 328, "from \(start): largest difference \(worst) at sample \(at)")
        }
    }

    /// A file `ffmpeg -metadata title=…` made, as a phone's would be: title and length read.
    @Test func aFileFFmpegMadeIsRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("phone.m4a")
        try FFprobe.ffmpeg([
            "-f", "lavfi", "-i", "sine=frequency=500:sample_rate=44100:duration=1.5", "-ac", "1", "-c:a", "aac",
            "-metadata", "title=From the phone", path,
        ])
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        #expect(reader.metadata.title == "From the phone")
        #expect(reader.info.sampleRate == 44100 && reader.info.channels == 1)
        #expect(abs(reader.info.frames - 66_150) <= Self.aacFrame, "\(reader.info.frames)")
        let decoded = try Audio.readAll(reader, as: .float32, Float.self)
        #expect(Int64(decoded.count) == reader.info.frames)
    }

    /// Bad files named .m4a: each refused naming the file and what is wrong with it.
    @Test func badFilesAreRefusedNamingTheCause() throws {
        let directory = try TemporaryDirectory()
        let good = directory.file("good.m4a")
        let writer = try SoundFileWriter(path: good, settings: RecordingSettings(format: .m4a, channels: 1))
        try Audio.write(writer, frames: 48_000, as: .float32)
        try writer.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))

        let truncated = directory.file("truncated.m4a")
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: truncated))
        let wav = directory.file("wave.m4a")
        let wavWriter = try SoundFileWriter(path: directory.file("wave.wav"), settings: RecordingSettings(format: .wav))
        try Audio.write(wavWriter, frames: 4800, as: .int16)
        try wavWriter.close()
        try FileManager.default.moveItem(atPath: directory.file("wave.wav"), toPath: wav)
        let text = directory.file("notes.m4a")
        try Data("not audio at all\n".utf8).write(to: URL(fileURLWithPath: text))
        let mp3Inside = directory.file("mp3inside.m4a")
        try FFprobe.ffmpeg(["-f", "lavfi", "-i", "sine=duration=0.5", "-c:a", "mp3", "-f", "mp4", mp3Inside])

        let cases: [(String, SoundFileError.Kind, String)] = [
            (truncated, .corrupt, "truncated or damaged: it has no index (moov atom)"),
            (wav, .unsupported, "not an MP4 (M4A) file"),
            (text, .unsupported, "not an MP4 (M4A) file"),
            (mp3Inside, .unsupported, "its audio is mp3, not AAC"),
        ]
        for (path, kind, words) in cases {
            let error = #expect(throws: SoundFileError.self) { try SoundFileReader(path: path) }
            #expect(error?.kind == kind, "\(path): \(String(describing: error))")
            #expect(error?.description.contains(path) == true, "names the file: \(String(describing: error))")
            #expect(error?.description.contains(words) == true, "\(String(describing: error))")
        }
    }

    /// A kill -9 while encoding leaves the intermediate and no target; recovery encodes it
    /// whole into a complete file and removes what was left.
    @Test func recoveryEncodesTheIntermediateIntoACompleteFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("killed.m4a")
        let settings = RecordingSettings(format: .m4a, channels: 2)
        let writer = try SoundFileWriter(path: path, settings: settings, metadata: SoundFileMetadata(title: "Killed"))
        let encoding = try #require(try writer.startEncoding())
        try Audio.write(writer, frames: 72_000, as: .float32)
        _ = try encoding.encodeSlice(upTo: writer.framesWritten)
        // What a kill leaves: the intermediate with its recipe, and a half-written temporary file.
        #expect(FileManager.default.fileExists(atPath: MP4AudioWriter.temporaryPath(for: path)))
        #expect(!FileManager.default.fileExists(atPath: path), "no target before it is complete")
        #expect(throws: SoundFileError.self) { try SoundFileReader(path: path) }

        let info = try SoundFileRecovery.repair(path: path)
        #expect(info.frames == 72_000 && info.format == .m4a)
        let reader = try SoundFileReader(path: path)
        #expect(reader.metadata.title == "Killed")
        #expect(try Audio.readAll(reader, as: .float32, Float.self).count == 72_000 * 2)
        reader.close()
        encoding.abandon()
        withExtendedLifetime(writer) {}
        #expect(directory.contents == ["killed.m4a"], "\(directory.contents)")
    }
}

/// `ffprobe` and `ffmpeg` (Debian's `ffmpeg`, which the Makefile installs).
enum FFprobe {
    /// `ffprobe -show_entries ENTRIES -of default` as key=value pairs.
    static func run(_ path: String, entries: String) throws -> [String: String] {
        let output = String(decoding: try Tool.output("/usr/bin/ffprobe", ["-v", "error", "-show_entries", entries, "-of", "default=noprint_wrappers=1", path]), as: UTF8.self)
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        return values
    }

    /// The file decoded by `ffmpeg` as interleaved float.
    static func decodedFloats(_ path: String) throws -> [Float] {
        let output = path + ".f32"
        try ffmpeg(["-i", path, "-f", "f32le", output])
        defer { try? FileManager.default.removeItem(atPath: output) }
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    static func ffmpeg(_ arguments: [String]) throws {
        _ = try Tool.output("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments)
    }
}
