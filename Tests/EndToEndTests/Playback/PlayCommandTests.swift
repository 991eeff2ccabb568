import TestSupport
import Foundation
import SoundFiles
import Testing

/// `voicememo play FILE`: the player driven as a script would, into the ALSA file
/// test device (`voicememo_playback`: plug → S16_LE 48 kHz stereo → a raw file).
///
/// Until the memo library is merged, MEMO is a path to a sound file.
@Suite struct PlayCommandTests {
    /// A sandbox with the ALSA test devices and a 16-bit stereo 48 kHz WAV of noise.
    private func sandboxWithNoise(frames: Int) throws -> (VoiceMemoSandbox, samples: [Int16]) {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.installALSATestDevices(captureFile: "/dev/null", playbackFile: sandbox.file("played.raw"))
        let raw = sandbox.file("noise.raw")
        try TestSignals.writeRawNoise(to: raw, frames: frames)
        let samples = try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let writer = try SoundFileWriter(
            path: sandbox.file("noise.wav"),
            settings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 2))
        try samples.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: .int16)
        }
        try writer.close()
        return (sandbox, samples)
    }

    private func played(_ sandbox: VoiceMemoSandbox) throws -> [Int16] {
        try Data(contentsOf: URL(fileURLWithPath: sandbox.file("played.raw"))).withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self))
        }
    }

    @Test func playsTheFileSampleForSample() throws {
        let (sandbox, samples) = try sandboxWithNoise(frames: 100_000)
        let outcome = try sandbox.run("play", sandbox.file("noise.wav"), "--device", "voicememo_playback")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.isEmpty, "no live line when stderr is not a terminal: \(outcome)")
        #expect(try played(sandbox) == samples)
    }

    @Test func alsaPrefixedDeviceWorksToo() throws {
        let (sandbox, samples) = try sandboxWithNoise(frames: 10_000)
        let outcome = try sandbox.run("play", sandbox.file("noise.wav"), "--device", "alsa:voicememo_playback")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(try played(sandbox) == samples)
    }

    @Test func fromOneSecondStartsAtFrame48000() throws {
        let (sandbox, samples) = try sandboxWithNoise(frames: 100_000)
        let outcome = try sandbox.run("play", sandbox.file("noise.wav"), "--device", "voicememo_playback", "--from", "1s")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(try played(sandbox) == Array(samples.dropFirst(48_000 * 2)))
    }

    @Test(arguments: [["--from", "-1"], ["--from", "3s"], ["--from", "00:05"], ["--from", "2.0834"]])
    func badFromIsAUsageErrorNamingTheFlag(arguments: [String]) throws {
        let (sandbox, _) = try sandboxWithNoise(frames: 100_000)
        let outcome = try sandbox.run(
            arguments: ["play", sandbox.file("noise.wav"), "--device", "voicememo_playback"] + arguments)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("--from"), "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.file("played.raw")), "nothing is played")
    }

    @Test func unknownMemoOrFile() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("play", "Standup notes")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.hasPrefix("voicememo: no file or memo named “Standup notes”"), "\(outcome)")
    }

    @Test func playsAMemoByTitlePrefix() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let recorded = try sandbox.run(
            "record", "--source", "tone:440@-6", "--duration", "0.5", "--format", "wav", "--title", "Standup notes")
        #expect(recorded.status == 0, "\(recorded)")
        try sandbox.installALSATestDevices(captureFile: "/dev/null")
        let outcome = try sandbox.run("play", "Standup", "--device", "voicememo_playback")
        #expect(outcome.status == 0, "\(outcome)")
        let played = try Data(contentsOf: URL(fileURLWithPath: sandbox.file("played.raw")))
        #expect(played.count == 24_000 * 4, "the whole memo went to the device")
    }

    /// Broken files of each kind: exit 1, a message naming the file and the cause, the
    /// file left as it was, nothing played.
    @Test(arguments: [
        ("empty.wav", Data(), "empty (0 bytes)"),
        ("notes.wav", Data("shopping list: eggs, milk\n".utf8), "not a sound file"),
        ("cut.wav", Data("RIFF\u{24}\0\0\0WAVEfmt ".utf8), "cut.wav"),
    ])
    func brokenFileIsRefused(name: String, contents: Data, cause: String) throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.installALSATestDevices(captureFile: "/dev/null", playbackFile: sandbox.file("played.raw"))
        let path = sandbox.file(name)
        try contents.write(to: URL(fileURLWithPath: path))
        let outcome = try sandbox.run("play", path, "--device", "voicememo_playback")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains(path), "\(outcome)")
        #expect(outcome.standardError.contains(cause), "\(outcome)")
        #expect(outcome.standardError.split(separator: "\n").count == 1, "one line: \(outcome)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents, "the file is untouched")
        #expect(!FileManager.default.fileExists(atPath: sandbox.file("played.raw")))
    }

    @Test func directoryIsRefused() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("play", sandbox.libraryDirectory.path)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("is a directory"), "\(outcome)")
    }

    @Test func missingPlaybackDeviceIsAClearError() throws {
        let (sandbox, _) = try sandboxWithNoise(frames: 4800)
        let outcome = try sandbox.run("play", sandbox.file("noise.wav"), "--device", "no_such_device")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("no_such_device"), "\(outcome)")
        #expect(outcome.standardError.contains("Unknown PCM"), "ALSA's own reason: \(outcome)")
        #expect(!outcome.standardError.contains("ALSA lib "), "alsa-lib's raw stderr must not leak")
    }

    /// With no sound card, `default` has nowhere to play: one clear sentence, exit 1.
    @Test func defaultDeviceWithoutASoundCard() throws {
        let (sandbox, _) = try sandboxWithNoise(frames: 4800)
        sandbox.environment["ALSA_CONFIG_PATH"] = nil
        let outcome = try sandbox.run("play", sandbox.file("noise.wav"))
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.hasPrefix("voicememo: "), "\(outcome)")
        #expect(outcome.standardError.contains("\"default\""), "\(outcome)")
        #expect(!outcome.standardError.contains("ALSA lib "))
    }
}

/// `voicememo play --speed --pitch --volume --skip-silence` into the ALSA file test device.
@Suite struct PlayAdjustmentCommandTests {
    /// A sandbox with the test devices and `tone.wav`: `sections` of (seconds, amplitude) of a
    /// `frequency` sine (440 Hz), 16-bit stereo 48 kHz.
    private func sandbox(_ sections: [(Double, Double)], frequency: Double = 440) throws -> VoiceMemoSandbox {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.installALSATestDevices(captureFile: "/dev/null", playbackFile: sandbox.file("played.raw"))
        var samples: [Int16] = []
        var frame = 0
        for (seconds, amplitude) in sections {
            for _ in 0..<Int(seconds * 48_000) {
                let value = Int16(amplitude * 32767 * sin(2 * Double.pi * frequency * Double(frame) / 48_000))
                samples += [value, value]
                frame += 1
            }
        }
        let writer = try SoundFileWriter(
            path: sandbox.file("tone.wav"), settings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 2))
        try samples.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            try writer.write(base, frames: samples.count / 2, sampleFormat: .int16)
        }
        try writer.close()
        return sandbox
    }

    private func playedLeft(_ sandbox: VoiceMemoSandbox) throws -> [Int16] {
        let all = try Data(contentsOf: URL(fileURLWithPath: sandbox.file("played.raw"))).withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self))
        }
        return stride(from: 0, to: all.count, by: 2).map { all[$0] }
    }

    @Test func twiceAsFastTakesHalfTheFramesAndSaysNothing() throws {
        let sandbox = try sandbox([(2, 0.5)])
        let outcome = try sandbox.run("play", sandbox.file("tone.wav"), "--device", "voicememo_playback", "--speed", "2x")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardError.isEmpty, "\(outcome)")
        let seconds = Double(try playedLeft(sandbox).count) / 48_000
        #expect(abs(seconds - 1) < 0.1, "\(seconds) s")
    }

    /// The frequency of the middle half of `samples` (48 kHz), from its rising zero crossings
    /// (interpolated between samples).
    private func frequency(_ samples: [Int16]) -> Double {
        let middle = samples[(samples.count / 4)..<(samples.count * 3 / 4)].map(Double.init)
        var crossings: [Double] = []
        for index in middle.indices.dropFirst() where middle[index - 1] < 0 && middle[index] >= 0 {
            let previous = middle[index - 1], current = middle[index]
            crossings.append(Double(index - 1) + previous / (previous - current))
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) / ((last - first) / 48_000)
    }

    /// The speed figures through the ALSA file playback device: `--speed 2` of a 1 kHz tone plays
    /// half the frames (±1 %) at 1000 Hz (±1 %); `--pitch 12` keeps the length (±1 %) at 2000 Hz.
    @Test func speedKeepsThePitchAndPitchKeepsTheLength() throws {
        let fast = try sandbox([(4, 0.5)], frequency: 1000)
        let doubled = try fast.run("play", fast.file("tone.wav"), "--device", "voicememo_playback", "--speed", "2")
        #expect(doubled.status == 0, "\(doubled)")
        let fastLeft = try playedLeft(fast)
        #expect(abs(Double(fastLeft.count) / 96_000 - 1) < 0.01, "\(fastLeft.count) frames for 96 000")
        #expect(abs(frequency(fastLeft) / 1000 - 1) < 0.01, "\(frequency(fastLeft)) Hz at 2×")

        let high = try sandbox([(4, 0.5)], frequency: 1000)
        let octave = try high.run("play", high.file("tone.wav"), "--device", "voicememo_playback", "--pitch", "12")
        #expect(octave.status == 0, "\(octave)")
        let highLeft = try playedLeft(high)
        #expect(abs(Double(highLeft.count) / 192_000 - 1) < 0.01, "\(highLeft.count) frames for 192 000")
        #expect(abs(frequency(highLeft) / 2000 - 1) < 0.01, "\(frequency(highLeft)) Hz an octave up")
    }

    /// `--volume 50` is −6.02 dB (±0.05) on the tone's RMS.
    @Test func halfVolumeIsMinusSixDecibels() throws {
        func rms(_ samples: [Int16]) -> Double {
            (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
        }
        let sandbox = try sandbox([(2, 0.8)], frequency: 1000)
        let original = try sandbox.run("play", sandbox.file("tone.wav"), "--device", "voicememo_playback")
        #expect(original.status == 0, "\(original)")
        let full = rms(try playedLeft(sandbox))
        try FileManager.default.removeItem(atPath: sandbox.file("played.raw"))
        let half = try sandbox.run("play", sandbox.file("tone.wav"), "--device", "voicememo_playback", "--volume", "50")
        #expect(half.status == 0, "\(half)")
        let decibels = 20 * log10(rms(try playedLeft(sandbox)) / full)
        #expect(abs(decibels + 6.02) < 0.05, "\(decibels) dB")
    }

    @Test func halfVolumeHalvesThePeakAndLoudVolumeWarnsOfClipping() throws {
        let quiet = try sandbox([(1, 0.8)])
        let half = try quiet.run("play", quiet.file("tone.wav"), "--device", "voicememo_playback", "--volume", "50%")
        #expect(half.status == 0, "\(half)")
        let peak = Double(try playedLeft(quiet).map { abs(Int($0)) }.max() ?? 0) / 32768
        #expect(abs(peak - 0.4) < 0.01, "\(peak)")
        let loud = try sandbox([(1, 0.8)])
        let clipped = try loud.run("play", loud.file("tone.wav"), "--device", "voicememo_playback", "--volume", "150", "--pitch", "-3")
        #expect(clipped.status == 0, "\(clipped)")
        #expect(clipped.standardError.contains("warning: at 150 % the volume clipped"), "\(clipped)")
    }

    @Test func skipSilenceSaysHowMuchItSkipped() throws {
        let sandbox = try sandbox([(1, 0.5), (3, 0), (1, 0.5)])
        let outcome = try sandbox.run("play", sandbox.file("tone.wav"), "--device", "voicememo_playback", "--skip-silence")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardError == "voicememo: skipped 2.8 s of silence\n", "\(outcome)")
        let seconds = Double(try playedLeft(sandbox).count) / 48_000
        #expect(abs(seconds - 2.25) < 0.05, "\(seconds) s")
    }

    @Test(arguments: [
        ["--speed", "4"], ["--speed", "0.25"], ["--speed", "fast"], ["--speed", "2xx"], ["--pitch", "13"],
        ["--pitch", "-12.5"], ["--volume", "151"], ["--volume", "-5"], ["--volume", "%"], ["--skip-silence=yes"],
    ])
    func badValuesAreUsageErrorsNamingTheFlag(arguments: [String]) throws {
        let sandbox = try sandbox([(0.1, 0.5)])
        let outcome = try sandbox.run(arguments: ["play", sandbox.file("tone.wav"), "--device", "voicememo_playback"] + arguments)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains(arguments[0].split(separator: "=").first.map(String.init) ?? ""), "\(outcome)")
        let played = (try? Data(contentsOf: URL(fileURLWithPath: sandbox.file("played.raw")))) ?? Data()
        #expect(played.isEmpty, "nothing was played")
    }
}

/// `record --play` and `play_after_stop = true`: the recording plays as soon as it is saved.
@Suite struct PlayAfterStopTests {
    /// A sandbox whose ALSA `default` device is the file test device.
    private func sandbox() throws -> VoiceMemoSandbox {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.installALSATestDevices(captureFile: "/dev/null", playbackFile: sandbox.file("played.raw"))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: sandbox.file("alsa-devices.conf")))
        handle.seekToEndOfFile()
        handle.write(Data("\npcm.!default { type plug slave.pcm \"voicememo_playback\" }\n".utf8))
        try handle.close()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        return sandbox
    }

    private func played(_ sandbox: VoiceMemoSandbox) throws -> [Int16] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: sandbox.file("played.raw")))) ?? Data()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    @Test func recordPlayPlaysTheNewMemoAsItIsStored() throws {
        let sandbox = try sandbox()
        let outcome = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.5", "--format", "wav", "--play")
        #expect(outcome.status == 0, "\(outcome)")
        let memo = try #require(try sandbox.listedMemos().first)
        let stored = try PlayerFixtureDecoding.int16(try #require(memo["path"] as? String))
        #expect(stored.count == 24_000 * 2)
        #expect(try played(sandbox) == stored, "what was played is the memo, sample for sample")
    }

    @Test func theConfigDoesTheSameAndAStopSignalDoesNotPlay() throws {
        let sandbox = try sandbox()
        try sandbox.writeConfig("play_after_stop = yes\n")
        let outcome = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.25", "--format", "wav")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(try played(sandbox).count == 12_000 * 2)

        try FileManager.default.removeItem(atPath: sandbox.file("played.raw"))
        sandbox.environment["VOICEMEMO_UNPACED"] = nil
        let stopped = try sandbox.shell("""
            voicememo record --source tone:440@-6 --format wav > id.txt 2> err.txt &
            pid=$!
            wait_until 30 "record to print the memo's id" test -s id.txt || exit 124
            sleep 0.5
            kill -INT $pid; wait $pid; echo "status=$?"
            cat err.txt
            """)
        #expect(stopped.standardOutput.contains("status=0"), "\(stopped)")
        #expect(stopped.standardOutput.contains("not playing the recording: SIGINT stopped the command"), "\(stopped)")
        #expect(try played(sandbox).isEmpty)
    }

    @Test func badCombinationsAndValuesAreRefused() throws {
        let sandbox = try sandbox()
        let vox = try sandbox.run("record", "--vox", "--play", "--source", "tone:440@-6")
        #expect(vox.status == 2, "\(vox)")
        #expect(vox.standardError.contains("--play") && vox.standardError.contains("--vox"), "\(vox)")
        try sandbox.writeConfig("play_after_stop = maybe\n")
        let config = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.1")
        #expect(config.status == 2, "\(config)")
        #expect(config.standardError.contains("line 1") && config.standardError.contains("maybe"), "\(config)")
        #expect(try sandbox.listedMemos().isEmpty, "nothing recorded")
    }
}

/// What libsndfile decodes from a file, as interleaved Int16.
enum PlayerFixtureDecoding {
    static func int16(_ path: String) throws -> [Int16] {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        var samples = [Int16](repeating: 0, count: (Int(reader.info.frames) + 1024) * reader.info.channels)
        let count = try samples.withUnsafeMutableBytes { raw in
            try reader.read(into: raw.baseAddress!, frames: Int(reader.info.frames) + 1024, as: .int16)
        }
        return Array(samples.prefix(count * reader.info.channels))
    }
}
