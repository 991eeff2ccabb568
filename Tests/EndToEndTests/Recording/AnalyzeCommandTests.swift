import TestSupport
import Foundation
import SoundFiles
import Testing

/// `voicememo analyze FILE [--json]`: figures of generated files and of real speech against a
/// reference written here, and the failures a person can cause.
@Suite struct AnalyzeCommandTests {
    struct Analysis: Decodable {
        let file: String
        let duration: Double
        let sample_rate: Int
        let channels: Int
        let peak_db: Double
        let true_peak_dbtp: Double
        let loudness_lufs: Double?
        let lra: Double?
        let clips: Int
    }

    static func analyze(_ sandbox: VoiceMemoSandbox, _ path: String) throws -> Analysis {
        let outcome = try sandbox.run("analyze", path, "--json")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput.split(separator: "\n").count == 1, "one object")
        return try JSONDecoder().decode(Analysis.self, from: Data(outcome.standardOutput.utf8))
    }

    /// EBU Tech 3341 case 1 as a file: a stereo 1 kHz sine at −23 dBFS reads −23.0 LUFS.
    @Test(arguments: [44_100, 48_000, 96_000])
    func stereoSineAtMinus23ReadsMinus23LUFS(rate: Int) throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.file("sine.wav")
        try TestSignals.writeSines(to: path, levels: [-23, -23], seconds: 10, sampleRate: rate)
        let analysis = try Self.analyze(sandbox, path)
        #expect(analysis.sample_rate == rate && analysis.channels == 2)
        #expect(abs(analysis.duration - 10) < 1e-9)
        #expect(abs(analysis.peak_db - -23) < 0.05)
        #expect(abs(analysis.true_peak_dbtp - -23) < 0.1)
        #expect(abs((analysis.loudness_lufs ?? 0) - -23) < 0.1, "\(String(describing: analysis.loudness_lufs))")
        #expect(abs(analysis.lra ?? 99) < 0.1)
        #expect(analysis.clips == 0)
    }

    @Test func textReportNamesEveryFigure() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.file("mono.wav")
        try TestSignals.writeSines(to: path, levels: [-23], seconds: 4)
        let outcome = try sandbox.run("analyze", path)
        #expect(outcome.status == 0, "\(outcome)")
        for expected in ["duration:", "peak:                -23.0 dBFS", "true peak:", "integrated loudness: -26.0 LUFS",
                         "loudness range:", "clips:               0"] {
            #expect(outcome.standardOutput.contains(expected), "\(expected) in \(outcome.standardOutput)")
        }
    }

    /// 16-bit samples at ±32767/−32768 three or more in a row are a clip (`ClipRule`), counted
    /// once however long; lone ones are not; digital silence has no loudness.
    @Test(arguments: [true, false])
    func countsClipsAndReportsSilenceAsNull(clipped: Bool) throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.file("take.wav")
        var samples = [Int16](repeating: 0, count: 48_000)
        if clipped {
            for index in 1_000..<1_010 { samples[index] = index % 2 == 0 ? 32767 : -32768 }
            for index in [2_000, 2_002, 3_000, 3_001] { samples[index] = 32767 }
        }
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 1))
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: samples.count, sampleFormat: .int16)
        }
        try writer.close()
        let analysis = try Self.analyze(sandbox, path)
        if clipped {
            #expect(analysis.clips == 1, "one run of ten; the lone and paired samples are no clip")
            #expect(analysis.peak_db == 0)
            #expect(analysis.true_peak_dbtp >= 0)
        } else {
            #expect(analysis.clips == 0)
            #expect(analysis.peak_db == -160)
            #expect(analysis.loudness_lufs == nil, "silence is below the −70 LUFS gate")
        }
        #expect(analysis.lra == nil, "shorter than 3 s")
    }

    /// Real speech (espeak-ng, resampled by sox to 48 kHz stereo) at three levels: the
    /// integrated loudness agrees with `ReferenceLoudness` within 0.1 LU.
    @Test(arguments: [0.0, -12, -24])
    func speechAgreesWithTheReference(gain: Double) throws {
        let sandbox = try VoiceMemoSandbox()
        let make = try sandbox.shell("""
            espeak-ng -w voice.wav "Checking a microphone properly means measuring loudness. \
            The quick brown fox jumps over the lazy dog, twice, and then it rests." &&
            sox voice.wav -r 48000 -c 2 -b 32 -e floating-point speech.wav gain \(gain)
            """)
        #expect(make.status == 0, "\(make)")
        let path = sandbox.file("speech.wav")
        let analysis = try Self.analyze(sandbox, path)
        let reference = try #require(try ReferenceLoudness.integrated(ofFileAt: path))
        let measured = try #require(analysis.loudness_lufs)
        #expect(abs(measured - reference) < 0.1, "analyze \(measured) vs reference \(reference)")
    }

    @Test func missingFileFailsNamingIt() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("analyze", sandbox.file("absent.wav"))
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("absent.wav"))
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test func analyzesAMemoByTitle() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let recorded = try sandbox.run(
            "record", "--source", "tone:1000@-12", "--duration", "1", "--title", "Loud tone", "--format", "wav")
        #expect(recorded.status == 0, "\(recorded)")
        let outcome = try sandbox.run("analyze", "Loud", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let object = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
        let peak = try #require(object?["peak_db"] as? Double)
        #expect(abs(peak - -12) < 0.1, "\(peak)")
        let unknown = try sandbox.run("analyze", "No such memo")
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("no file or memo named"), "\(unknown)")
    }

    @Test func nonAudioFileFailsNamingIt() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.file("notes.wav")
        try Data("not a sound file\n".utf8).write(to: URL(fileURLWithPath: path))
        let outcome = try sandbox.run("analyze", path)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("notes.wav"))
    }

    @Test(arguments: [["analyze"], ["analyze", "a.wav", "--bogus"], ["analyze", "a.wav", "b.wav"], ["analyze", "--json"]])
    func badArgumentsAreUsageErrors(arguments: [String]) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run(arguments: arguments)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("analyze --help"))
    }
}

/// A plain BS.1770-4 integrated loudness for 48 kHz files, independent of `Metering`: the
/// standard's tabulated 48 kHz coefficients, every 400 ms block summed from scratch.
enum ReferenceLoudness {
    static func integrated(ofFileAt path: String) throws -> Double? {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        precondition(reader.info.sampleRate == 48_000, "the reference knows 48 kHz only")
        let channels = reader.info.channels
        var samples = [Float](repeating: 0, count: Int(reader.info.frames) * channels)
        let frames = try samples.withUnsafeMutableBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return try reader.read(into: base, frames: Int(reader.info.frames), as: .float32)
        }
        var squares = [[Double]](repeating: [], count: channels)
        for channel in 0..<channels {
            var (s1, s2, h1, h2) = (0.0, 0.0, 0.0, 0.0)
            squares[channel] = (0..<frames).map { frame in
                let x = Double(samples[frame * channels + channel])
                let y = 1.53512485958697 * x + s1
                s1 = -2.69169618940638 * x + 1.69065929318241 * y + s2
                s2 = 1.19839281085285 * x - 0.73248077421585 * y
                let z = y + h1
                h1 = -2 * y + 1.99004745483398 * z + h2
                h2 = y - 0.99007225036621 * z
                return z * z
            }
        }
        var blocks: [Double] = []
        var start = 0
        while start + 19_200 <= frames {
            var energy = 0.0
            for channel in 0..<channels {
                energy += squares[channel][start..<(start + 19_200)].reduce(0, +) / 19_200
            }
            blocks.append(energy)
            start += 4_800
        }
        func loudness(_ energy: Double) -> Double { -0.691 + 10 * log10(energy) }
        let loud = blocks.filter { loudness($0) > -70 }
        guard !loud.isEmpty else { return nil }
        let relative = loudness(loud.reduce(0, +) / Double(loud.count)) - 10
        let gated = loud.filter { loudness($0) > relative }
        return loudness(gated.reduce(0, +) / Double(gated.count))
    }
}
