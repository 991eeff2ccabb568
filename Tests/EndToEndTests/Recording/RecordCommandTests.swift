import TestSupport
import Foundation
import SoundFiles
import Testing

/// `voicememo record --output`: the recording engine driven as a script would drive it,
/// through real ALSA devices (file-fed, no sound card) and generated sources.
@Suite struct RecordCommandTests {
    @Test func recordsFromALSABitExactLikeArecord() throws {
        let sandbox = try VoiceMemoSandbox()
        let input = sandbox.file("noise.raw")
        // 10 s of input: the file plugin repeats stale data past its end.
        try TestSignals.writeRawNoise(to: input, frames: 480_000)
        try sandbox.installALSATestDevices(captureFile: input)

        let ours = try sandbox.run(
            "record", "--source", "alsa:voicememo_capture", "--format", "wav", "--encoding", "pcm16",
            "--rate", "48000", "--channels", "2", "--duration", "3", "--output", sandbox.file("a.wav"))
        #expect(ours.status == 0, "\(ours)")
        let theirs = try sandbox.shell(
            "arecord -q -D voicememo_capture -f S16_LE -r 48000 -c 2 -d 3 b.wav")
        #expect(theirs.status == 0, "\(theirs)")

        let a = try TestSignals.readInt16(sandbox.file("a.wav"))
        let b = try TestSignals.readInt16(sandbox.file("b.wav"))
        #expect(a.info.frames == 144_000)
        #expect(b.info.frames == 144_000)
        #expect(a.samples == b.samples)
        // And both are the input file's first 3 s, byte for byte.
        let raw = try Data(contentsOf: URL(fileURLWithPath: input)).prefix(144_000 * 4)
        let expected = raw.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(a.samples == expected)
    }

    @Test func unknownALSADeviceFailsWithALSAsReason() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run(
            "record", "--source", "alsa:no_such_device", "--duration", "1", "--output", sandbox.file("x.wav"))
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("no_such_device"))
        #expect(outcome.standardError.contains("Unknown PCM"), "ALSA's own reason is part of the message")
        #expect(!outcome.standardError.contains("ALSA lib "), "alsa-lib's raw stderr must not leak")
        #expect(!FileManager.default.fileExists(atPath: sandbox.file("x.wav")), "nothing is created")
    }

    /// Into the library: an input that cannot be opened prints no id (it printed the id of the
    /// memo it then removed, so `id=$(voicememo record …)` held an id that names nothing) and
    /// leaves no memo; a stream that cannot be reached the same.
    @Test(arguments: ["alsa:no_such_device", "file:/nonexistent.wav", "url:http://127.0.0.1:9/none"])
    func anInputThatCannotBeOpenedPrintsNoIDAndLeavesNoMemo(source: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("record", "--source", source, "--duration", "1", "--no-transcribe")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty, "\(outcome)")
        #expect(outcome.standardError.contains("cannot"), "\(outcome)")
        #expect(try sandbox.listedMemos().isEmpty)
        #expect(try sandbox.listedMemos(deleted: true).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.libraryDirectory.path).filter { !$0.hasPrefix("index") && !$0.hasPrefix(".") }.isEmpty, "no audio file")
    }

    @Test func durationIsExactWithAPacedSource() throws {
        let sandbox = try VoiceMemoSandbox()
        let start = ContinuousClock.now
        let outcome = try sandbox.run(
            "record", "--source", "tone:440@-6", "--duration", "2", "--format", "flac", "--output", sandbox.file("two.flac"))
        let elapsed = ContinuousClock.now - start
        #expect(outcome.status == 0, "\(outcome)")
        let reader = try SoundFileReader(path: sandbox.file("two.flac"))
        #expect(reader.info.frames == 96_000)
        #expect(reader.info.sampleRate == 48_000)
        #expect(elapsed >= .seconds(1.9), "a paced source runs in real time")
    }

    /// Every format/encoding `record` offers records a file libsndfile reads back right.
    @Test(arguments: [
        ("wav", "pcm16"), ("wav", "pcm24"), ("wav", "pcm32"), ("wav", "float"), ("wav", "ulaw"),
        ("wav", "alaw"), ("wav", "ima-adpcm"), ("flac", "pcm16"), ("flac", "pcm24"), ("ogg", nil),
        ("opus", nil), ("mp3", nil), ("caf", "pcm16"), ("caf", "alac16"), ("caf", "alac24"),
        ("aiff", "pcm16"), ("aiff", "pcm24"), ("aiff", "float"),
    ] as [(String, String?)])
    func everyFormatReadsBack(format: String, encoding: String?) throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let path = sandbox.file("out.\(format)")
        var arguments = ["record", "--source", "tone:1000@-12", "--duration", "1.5", "--format", format, "--output", path]
        if let encoding { arguments += ["--encoding", encoding] }
        let outcome = try sandbox.run(arguments: arguments)
        #expect(outcome.status == 0, "\(outcome)")
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.sampleRate == 48_000)
        #expect(reader.info.channels == 2)
        // Lossy codecs and ADPCM may pad to a block; libsndfile trims most of them.
        let tolerance: Int64 = ["ogg": 2048, "opus": 960, "mp3": 1152][format] ?? (encoding == "ima-adpcm" ? 2041 : 0)
        #expect(abs(reader.info.frames - 72_000) <= tolerance, "\(reader.info.frames) frames")
    }

    @Test(arguments: ["TERM", "INT", "HUP"])
    func stopSignalsFinishCleanlyAndToolsAgreeOnTheLength(signal: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.shell("""
            voicememo record --source tone:440@-6 --format wav --output t.wav 2>err.txt &
            pid=$!
            poll=0.02 wait_until 30 "record to write t.wav" test -s t.wav || exit 124
            sleep 1.5
            kill -\(signal) $pid
            wait $pid; echo "status=$?"
            sox --i -s t.wav
            """)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "t.wav", "the path is printed: \(outcome)")
        #expect(lines.dropFirst().first == "status=0", "\(outcome)")
        let soxFrames = Int64(lines.dropFirst(2).first ?? "") ?? -1
        let reader = try SoundFileReader(path: sandbox.file("t.wav"))
        #expect(reader.info.frames == soxFrames, "sox and libsndfile agree")
        #expect(reader.info.frames >= 48_000, "about 1.5 s was recorded")
    }

    /// kill -9 mid-recording: what is on disk, once repaired, holds everything up to
    /// 0.5 s before the kill.
    @Test(arguments: ["wav", "flac", "ogg", "opus", "mp3", "caf", "aiff"])
    func killNineLosesAtMostHalfASecond(format: String) throws {
        let sandbox = try VoiceMemoSandbox()
        // Formats encoded at stop (Vorbis, MP3) record into a hidden intermediate first.
        let recordedFor = try sandbox.recordThenKillNine(
            "voicememo record --source tone:440@-6 --format \(format) --output k.\(format)",
            startedWhen: "[ -e k.\(format) ] || [ -e .k.\(format).partial.w64 ]")
        let info = try SoundFileRecovery.repair(path: sandbox.file("k.\(format)"))
        let kept = Double(info.frames) / Double(info.sampleRate)
        #expect(kept >= recordedFor - 0.5, "\(format): kept \(kept) s of about \(recordedFor) s")
        #expect(kept <= recordedFor + 0.2)
    }

    @Test func fileSizeLimitStopsWithTheCauseAndKeepsTheFile() throws {
        let sandbox = try VoiceMemoSandbox()
        // 200 blocks of 512 bytes: about 0.5 s of 48 kHz stereo pcm16.
        let outcome = try sandbox.shell("""
            ulimit -f 200
            voicememo record --source tone:440@-6 --format wav --duration 5 --output big.wav
            echo "status=$?"
            """)
        #expect(outcome.standardOutput.contains("status=1"), "\(outcome)")
        #expect(outcome.standardError.contains("too large") || outcome.standardError.contains("EFBIG"), "\(outcome)")
        let reader = try SoundFileReader(path: sandbox.file("big.wav"))
        #expect(reader.info.frames > 10_000, "what was written stays readable")
    }

    @Test(arguments: [
        (["--format", "opus", "--rate", "44100"], "48000"),
        (["--format", "wav", "--encoding", "alac16"], "caf"),
        (["--rate", "1"], "--rate"),
        (["--rate", "10000000"], "--rate"),
        (["--channels", "0"], "--channels"),
        (["--channels", "99"], "--channels"),
    ] as [([String], String)])
    func badSettingsAreRefusedBeforeAnythingIsCreated(flags: [String], hint: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let output = sandbox.file(flags.contains("opus") ? "x.opus" : "x.wav")
        let outcome = try sandbox.run(arguments: ["record", "--source", "tone:440@-6", "--duration", "1", "--output", output] + flags)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains(hint), "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func extensionThatContradictsTheFormatIsRefused() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run(
            "record", "--source", "tone:440@-6", "--format", "flac", "--output", sandbox.file("x.wav"))
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains(".wav") && outcome.standardError.contains("flac"), "\(outcome)")
    }

    /// Without `--output` the recording becomes a memo (LibraryCommandTests covers the library).
    @Test func recordWithoutOutputAddsAMemoAndPrintsItsID() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "1")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput == "1\n")
    }
}
