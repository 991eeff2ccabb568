import Foundation
import Testing

/// `export MEMO PATH --loudness LUFS [--true-peak DBTP]` on five kinds of memo (speech from
/// espeak-ng, music-like tones, a clip peaking at 0 dBFS, a very quiet one, a stereo one at
/// 44.1 kHz), each into a lossless and a lossy format: the copy measures within 0.5 LU of the
/// target and at or under the ceiling by `voicememo analyze` and by FFmpeg's own meter
/// (`ebur128=peak=true`) alike. And the refusals: a target or ceiling out of range, a memo too
/// short or too quiet to measure, a damaged memo, a full disk; nothing is left at PATH. (sox -R:
/// the same dither every run; twelve other ditherings of the quiet memo were tried by hand.)
@Suite(.serialized) struct LoudnessExportTests {
    /// The five memos, made with espeak-ng and sox, put in the library folder (adopted).
    static func makeMemos(in sandbox: VoiceMemoSandbox) throws {
        let made = try sandbox.shell("""
            set -e
            L="$VOICEMEMO_HOME"
            espeak-ng -w speech22.wav "Good morning. Yesterday I finished the export prompt, and today I write the loudness tests. No blockers, but the review is slow."
            sox -R speech22.wav -r 48000 "$L/speech.wav"
            sox -R -n -r 48000 -c 1 -b 16 "$L/tones.wav" synth 0.6 pluck A3 : synth 0.6 pluck C4 : synth 0.6 pluck E4 : synth 0.6 pluck A4 : synth 1.2 pluck E4 : synth 0.6 pluck C4 : synth 1.2 pluck A3
            sox -R speech22.wav -r 48000 "$L/peak.wav" gain -n 0
            sox -R speech22.wav -r 48000 "$L/quiet.wav" gain -n -42
            sox -R -n -r 44100 -c 2 -b 16 "$L/stereo.wav" synth 5 sine 220 sine 330 tremolo 3 60 gain -n -6
            """)
        #expect(made.status == 0, "\(made)")
        let titles = try sandbox.listedMemos().compactMap { $0["title"] as? String }.sorted()
        #expect(titles == ["peak", "quiet", "speech", "stereo", "tones"], "\(titles)")
    }

    /// FFmpeg's integrated loudness (LUFS) and true peak (dBFS, one decimal) of `path`.
    static func ffmpegMeasure(_ path: String, in sandbox: VoiceMemoSandbox) throws -> (loudness: Double, truePeak: Double) {
        let outcome = try sandbox.shell("ffmpeg -hide_banner -nostats -i '\(path)' -af ebur128=peak=true -f null - 2>&1 | tail -12")
        func figure(_ label: String) -> Double? {
            outcome.standardOutput.split(separator: "\n").last { $0.contains(label) }
                .flatMap { line in line.split(separator: " ").compactMap { Double($0) }.first }
        }
        guard let loudness = figure("I:"), let peak = figure("Peak:") else {
            throw LibraryTestFailure(description: "ffmpeg measured nothing: \(outcome)")
        }
        return (loudness, peak)
    }

    static func analyze(_ path: String, in sandbox: VoiceMemoSandbox) throws -> [String: Any] {
        let outcome = try sandbox.run("analyze", path, "--json")
        guard outcome.status == 0, let json = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
        else { throw LibraryTestFailure(description: "analyze failed: \(outcome)") }
        return json
    }

    @Test(arguments: [
        ("speech", "flac", "mp3"), ("tones", "wav", "ogg"), ("peak", "flac", "opus"), ("quiet", "flac", "m4a"),
        ("stereo", "wav", "m4a"),
    ])
    func fiveMemosLandOnTheTargetUnderTheCeiling(memo: String, lossless: String, lossy: String) throws {
        let sandbox = try VoiceMemoSandbox()
        try Self.makeMemos(in: sandbox)
        let targets: [(lufs: Double, ceiling: Double?)] = [(-16, nil), (-23, -2)]
        for (format, target) in [(lossless, targets[0]), (lossy, targets[0]), (lossless, targets[1])] {
            let path = sandbox.file("\(memo)-\(Int(-target.lufs)).\(format)")
            let arguments = ["export", memo, path, "--loudness", String(target.lufs)]
                + (target.ceiling.map { ["--true-peak", String($0)] } ?? [])
            let exported = try sandbox.run(arguments: arguments, timeout: .seconds(120))
            #expect(exported.status == 0, "\(arguments): \(exported)")
            #expect(exported.standardError.contains("normalised to"), "the note says what was done: \(exported)")
            let ceiling = target.ceiling ?? -1
            let ours = try Self.analyze(path, in: sandbox)
            let loudness = try #require(ours["loudness_lufs"] as? Double)
            let truePeak = try #require(ours["true_peak_dbtp"] as? Double)
            let ffmpeg = try Self.ffmpegMeasure(path, in: sandbox)
            print("LoudnessExportTests: \(memo).\(format) at \(target): analyze \(loudness) LUFS \(truePeak) dBTP; ffmpeg \(ffmpeg.loudness) LUFS \(ffmpeg.truePeak) dBTP")
            #expect(abs(loudness - target.lufs) <= 0.5, "\(memo).\(format) by analyze: \(loudness) LUFS")
            #expect(truePeak <= ceiling, "\(memo).\(format) by analyze: \(truePeak) dBTP")
            #expect(abs(ffmpeg.loudness - target.lufs) <= 0.5, "\(memo).\(format) by ffmpeg: \(ffmpeg.loudness) LUFS")
            #expect(ffmpeg.truePeak <= ceiling, "\(memo).\(format) by ffmpeg: \(ffmpeg.truePeak) dBTP")
        }
    }

    @Test func targetsOutOfRangeAreUsageErrors() throws {
        let sandbox = try VoiceMemoSandbox()
        let recorded = try sandbox.run("record", "--source", "tone:440@-12", "--duration", "1", "--title", "Tone")
        #expect(recorded.status == 0, "\(recorded)")
        let cases: [([String], String)] = [
            (["--loudness", "5"], "--loudness"), (["--loudness", "-71"], "--loudness"), (["--loudness", "loud"], "--loudness"),
            (["--loudness", "-16", "--true-peak", "0.5"], "--true-peak"), (["--true-peak", "-1"], "--true-peak only works with --loudness"),
        ]
        for (flags, named) in cases {
            let path = sandbox.file("out.flac")
            let outcome = try sandbox.run(arguments: ["export", "Tone", path] + flags)
            #expect(outcome.status == 2, "\(flags): \(outcome)")
            #expect(outcome.standardError.contains(named), "\(flags): \(outcome.standardError)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(flags): nothing written")
        }
        let labelsOnly = try sandbox.run("export", "Tone", "--labels", sandbox.file("t.txt"), "--loudness", "-16")
        #expect(labelsOnly.status == 2 && labelsOnly.standardError.contains("--loudness only works with PATH"), "\(labelsOnly)")
        let accepted = try sandbox.run("export", "Tone", sandbox.file("ok.flac"), "--loudness", "-16LUFS", "--true-peak", "0dBTP")
        #expect(accepted.status == 0, "units and a 0 dBTP ceiling are accepted: \(accepted)")
    }

    @Test func tooShortSilentAndDamagedMemosAreRefusedWithTheReason() throws {
        let sandbox = try VoiceMemoSandbox()
        let made = try sandbox.shell("""
            set -e
            sox -n -r 48000 -c 1 -b 16 "$VOICEMEMO_HOME/short.wav" synth 0.3 sine 440 gain -6
            sox -n -r 48000 -c 1 -b 16 "$VOICEMEMO_HOME/silent.wav" trim 0 3
            sox -n -r 48000 -c 1 -b 16 "$VOICEMEMO_HOME/damaged.wav" synth 2 sine 440
            sox -n -r 48000 -c 1 -b 16 "$VOICEMEMO_HOME/tone.wav" synth 2 sine 440 gain -12
            """)
        #expect(made.status == 0, "\(made)")
        #expect(try sandbox.listedMemos().count == 4)
        // 0 LUFS under a −6 dBTP ceiling: even a square wave at −6 dBFS is quieter than that.
        let unreachable = try sandbox.run("export", "tone", sandbox.file("tone.flac"), "--loudness", "0", "--true-peak", "-6", timeout: .seconds(120))
        #expect(unreachable.status == 1 && unreachable.standardError.contains("cannot bring it to 0 LUFS, -6 dBTP")
            && unreachable.standardError.contains("aim lower with --loudness or raise --true-peak"), "\(unreachable)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.file("tone.flac")), "nothing at PATH")
        let damaged = sandbox.libraryDirectory.appendingPathComponent("damaged.wav").path
        let handle = try #require(FileHandle(forUpdatingAtPath: damaged))
        try handle.write(contentsOf: Data(repeating: 0x5A, count: 64))
        try handle.close()
        let refusals: [(String, String)] = [
            ("short", "0.30 s long, and an integrated loudness needs at least 0.4 s"),
            ("silent", "below the −70 LUFS gate"),
            ("damaged", "damaged"),
        ]
        for (memo, reason) in refusals {
            let path = sandbox.file("\(memo).flac")
            let outcome = try sandbox.run("export", memo, path, "--loudness", "-16")
            #expect(outcome.status == 1, "\(memo): \(outcome)")
            #expect(outcome.standardError.contains(reason) && outcome.standardError.contains(memo), "\(memo): \(outcome.standardError)")
            print("LoudnessExportTests: \(memo): \(outcome.standardError)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(memo): nothing at PATH")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.url.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "no hidden temporary file: \(left)")
    }

    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"))
    func aFullDiskLeavesNothingAtThePath() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.shell("""
            sox -n -r 48000 -c 2 -b 16 "$VOICEMEMO_HOME/long.wav" synth 6 sine 300 gain -20 || exit 98
            voicememo list > /dev/null 2>&1
            mkdir -p mnt
            exec unshare -m --propagation private bash -c '
              mount -t tmpfs -o size=300k tmpfs mnt || exit 99
              voicememo export long mnt/long.wav --loudness -16 > out.txt 2> err.txt
              echo "export=$?"
              ls -A mnt > left.txt
              umount mnt
            '
            """)
        #expect(outcome.standardOutput.contains("export=1"), "\(outcome)")
        let message = try String(contentsOfFile: sandbox.file("err.txt"), encoding: .utf8)
        #expect(message.contains("No space left on device") && message.contains("mnt/long.wav"), "names the cause and the file: \(message)")
        #expect(!message.contains(".long.wav.export-"), "never the hidden name: \(message)")
        let left = try String(contentsOfFile: sandbox.file("left.txt"), encoding: .utf8)
        #expect(left.isEmpty, "no partial file, no temporary one: \(left)")
        #expect(try sandbox.listedMemos().first?["title"] as? String == "long", "the memo is as it was")
    }
}
