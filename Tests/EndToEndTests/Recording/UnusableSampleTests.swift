import Foundation
import SoundFiles
import Testing

/// A float sample that is not a number (NaN, ±∞) or far beyond full scale never reaches an
/// encoder: LAME asserts on one and aborts the process, FFmpeg's AAC encoder refuses the
/// frame, libsndfile's FLAC writer writes nothing. Such samples become silence (or full
/// scale), are counted and reported, and every library command keeps working.
@Suite struct UnusableSampleTests {
    /// A 1 s, 48 kHz mono 32-bit float WAV of a 440 Hz tone, with `bad` written over samples
    /// 1000, 2000 and 3000.
    static func floatWAV(at path: String, bad: Float) throws {
        var samples = (0..<48_000).map { Float(0.3 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        for index in [1000, 2000, 3000] { samples[index] = bad }
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let payload = samples.count * 4
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + payload))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16))
        append(UInt16(3)); append(UInt16(1)); append(UInt32(48_000)); append(UInt32(48_000 * 4)); append(UInt16(4)); append(UInt16(32))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(payload))
        for sample in samples { append(sample.bitPattern) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    @Test(arguments: ["mp3", "m4a", "flac", "wav"])
    func aNotANumberSampleIsRecordedAsSilenceAndSaid(format: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let source = sandbox.file("onenan.wav")
        try Self.floatWAV(at: source, bad: .nan)
        var environment = sandbox.environment
        environment["VOICEMEMO_UNPACED"] = "1"
        let recorded = try ProcessRunner.run(
            try VoiceMemoBinary.url(), arguments: ["record", "--source", "file:" + source, "--format", format],
            environment: environment, timeout: .seconds(60))
        #expect(recorded.status == 0 && !recorded.wasSignalled, "\(recorded)")
        #expect(recorded.standardError.contains("3 samples were not numbers and were written as silence"), "\(recorded)")

        let list = try sandbox.run("list", "--json")
        #expect(list.status == 0 && !list.wasSignalled, "\(list)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(memo["state"] as? String == "complete", "\(memo)")
        #expect((memo["duration"] as? Double ?? 0) > 0.9, "\(memo)")
        for target in ["mp3", "m4a", "flac"] {
            let copy = sandbox.file("copy.\(target)")
            let exported = try sandbox.run("export", "1", copy)
            #expect(exported.status == 0 && !exported.wasSignalled, "\(target): \(exported)")
        }
    }

    @Test(arguments: [Float.infinity, -Float.infinity, 1e36])
    func aFileOfUnusableSamplesExportsToEveryFormat(bad: Float) throws {
        let sandbox = try VoiceMemoSandbox()
        try Self.floatWAV(at: sandbox.libraryDirectory.appendingPathComponent("dropped.wav").path, bad: bad)
        let list = try sandbox.run("list", "--json")
        #expect(list.status == 0, "\(list)")
        #expect(try sandbox.listedMemos().first?["state"] as? String == "complete")
        let said = bad.isFinite ? "3 samples beyond full scale were clamped" : "3 samples were not numbers and were written as silence"
        for target in ["mp3", "m4a", "flac", "ogg"] {
            let copy = sandbox.file("copy.\(target)")
            let exported = try sandbox.run("export", "1", copy)
            #expect(exported.status == 0 && !exported.wasSignalled, "\(target): \(exported)")
            #expect(exported.standardError.contains("note: in memo 1, \(said)"), "\(target): \(exported.standardError)")
            let reader = try SoundFileReader(path: copy)
            #expect(reader.info.frames > 40_000, "\(target): \(reader.info.frames) frames")
            reader.close()
        }
        let analyzed = try sandbox.run("analyze", "1")
        #expect(analyzed.status == 0, "\(analyzed)")
        // Normalised, the file is read twice (measured, then written): said once, counted once.
        let normalised = try sandbox.run("export", "1", sandbox.file("loud.flac"), "--loudness", "-16")
        #expect(normalised.status == 0, "\(normalised)")
        #expect(normalised.standardError.components(separatedBy: said).count == 2, "\(normalised.standardError)")
    }
}
