import Foundation
import Testing

/// `voicememo enhance` as a script sees it: a noisy memo becomes a new memo in its format with
/// the noise down, the original in Recently Deleted and restorable; bad input refused with the
/// cause and nothing changed; a full disk leaving the original.
@Suite struct EnhanceCommandTests {
    private func memo(_ sandbox: VoiceMemoSandbox, _ id: String, deleted: Bool = false) throws -> [String: Any]? {
        try sandbox.listedMemos(deleted: deleted).first { ($0["id"] as? Int).map(String.init) == id }
    }

    /// RMS level, in dBFS, of `path` from `start` for `seconds` (sox's `stat`).
    static func rmsDB(_ path: String, start: Double, seconds: Double, in sandbox: VoiceMemoSandbox) throws -> Double {
        let outcome = try sandbox.shell("sox '\(path)' -n trim \(start) \(seconds) stat 2>&1")
        let line = outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix("RMS     amplitude:") }
        let amplitude = try #require(line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }, "\(path): \(outcome.standardOutput) \(outcome.standardError)")
        return 20 * log10(max(amplitude, 1e-9))
    }

    /// At 44.1 kHz too: enhance once refused every rate but 16, 32 and 48 kHz.
    @Test(arguments: [("flac", 48_000), ("ogg", 48_000), ("flac", 44_100)])
    func aNoisyMemoBecomesAQuieterOneAndTheOriginalIsRestorable(format: String, rate: Int) throws {
        let sandbox = try VoiceMemoSandbox()
        // 1.5 s of noise, then speech, then 1 s of noise: pink noise 20 dB under the speech.
        let made = try sandbox.shell("""
            set -e
            espeak-ng -w speech22.wav "The meeting moved to Thursday at ten."
            sox -R speech22.wav -r \(rate) -b 16 speech.wav gain -n -20 pad 1.5 1
            sox -R -n -r \(rate) -b 16 -c 1 noise.wav synth "$(soxi -D speech.wav)" pinknoise gain -n -42
            sox -R -m speech.wav noise.wav "$VOICEMEMO_HOME/noisy.\(format)"
            """)
        #expect(made.status == 0, "\(made)")
        let id = try #require(try sandbox.listedMemos().first?["id"] as? Int).description
        let before = try #require(try memo(sandbox, id))
        let enhanced = try sandbox.run("enhance", "noisy", "--json", timeout: .seconds(120))
        #expect(enhanced.status == 0, "\(enhanced)")
        #expect(enhanced.standardError.contains("memo \(id), is in Recently Deleted ('voicememo restore \(id)'"), "\(enhanced)")
        let made2 = try #require(try JSONSerialization.jsonObject(with: Data(enhanced.standardOutput.utf8)) as? [[String: Any]])
        #expect(made2.count == 1, "\(made2)")
        let new = try #require(made2.first)
        let newID = try #require(new["id"] as? Int).description
        #expect(newID != id)
        for key in ["title", "format", "sample_rate", "channels"] {
            #expect("\(new[key] ?? "none")" == "\(before[key] ?? "none")", "\(key): \(new) against \(before)")
        }
        let frames = try #require(new["frames"] as? Int)
        let originalFrames = try #require(before["frames"] as? Int)
        // Ogg Vorbis frames are counted after decoding: within a packet of the original.
        #expect(format == "flac" ? frames == originalFrames : abs(frames - originalFrames) <= 2_048, "\(frames) of \(originalFrames)")
        let original = try #require(try memo(sandbox, id, deleted: true), "the original is in Recently Deleted")
        let originalPath = try #require(original["path"] as? String)
        let newPath = try #require(new["path"] as? String)
        // The noise alone, 0.8–1.4 s (after the denoiser has heard it for 0.8 s): 15 dB down or more.
        let floorBefore = try Self.rmsDB(originalPath, start: 0.8, seconds: 0.6, in: sandbox)
        let floorAfter = try Self.rmsDB(newPath, start: 0.8, seconds: 0.6, in: sandbox)
        #expect(floorBefore - floorAfter >= 15, "the noise went from \(floorBefore) to \(floorAfter) dBFS")
        // The speech is still there, within 1 dB.
        let speechBefore = try Self.rmsDB(originalPath, start: 1.6, seconds: 1.2, in: sandbox)
        let speechAfter = try Self.rmsDB(newPath, start: 1.6, seconds: 1.2, in: sandbox)
        #expect(abs(speechBefore - speechAfter) <= 1, "the speech went from \(speechBefore) to \(speechAfter) dBFS")
        print("EnhanceCommandTests: \(format) at \(rate) Hz: noise \(floorBefore) → \(floorAfter) dBFS, speech \(speechBefore) → \(speechAfter) dBFS")

        let restored = try sandbox.run("restore", id)
        #expect(restored.status == 0, "\(restored)")
        #expect(try memo(sandbox, id)?["frames"] as? Int == originalFrames)
        #expect(try memo(sandbox, newID) != nil, "the enhanced memo stays too")
    }

    /// Bad input: exit 2 for usage, 1 for what cannot be done; the cause named, nothing changed.
    @Test(arguments: [
        (["enhance"], 2, "MEMO"),
        (["enhance", "77"], 1, "no memo with id 77"),
        (["enhance", "Tone", "--strength", "9"], 2, "--strength"),
    ])
    func badInputIsRefusedAndNothingChanges(arguments: [String], status: Int32, cause: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Tone", seconds: "1")
        let outcome = try sandbox.run(arguments: arguments)
        #expect(outcome.status == status, "\(outcome)")
        #expect(outcome.standardError.contains(cause), "\(outcome)")
        #expect(try sandbox.listedMemos().compactMap { $0["id"] as? Int }.map(String.init) == [id])
        #expect(try sandbox.listedMemos(deleted: true).isEmpty)
    }

    /// A damaged memo is refused naming the damage; a memo at 768 kHz naming the rates
    /// enhance works at; an empty one for having no audio. Nothing changes.
    @Test func damagedAndUnsupportedMemosAreRefusedWithTheReason() throws {
        let sandbox = try VoiceMemoSandbox()
        try Data("not audio at all\n".utf8).write(to: sandbox.libraryDirectory.appendingPathComponent("notes.wav"))
        let made = try sandbox.shell("""
            set -e
            sox -n -r 768000 -c 1 -b 16 "$VOICEMEMO_HOME/ultrasonic.wav" synth 1 pinknoise gain -20
            sox -n -r 16000 -c 1 -b 16 "$VOICEMEMO_HOME/empty.wav" trim 0 0
            """)
        #expect(made.status == 0, "\(made)")
        let before = try sandbox.listedMemos()
        #expect(before.count == 3, "\(before)")
        let cases: [(String, String)] = [
            ("notes", "cannot be read as audio"),
            ("ultrasonic", "enhance works at 8 to 384 kHz; this audio is at 768000 Hz"),
            ("empty", "it holds no audio"),
        ]
        for (title, cause) in cases {
            let outcome = try sandbox.run("enhance", title)
            #expect(outcome.status == 1, "\(title): \(outcome)")
            #expect(outcome.standardError.contains(cause), "\(title): \(outcome)")
        }
        #expect(try sandbox.listedMemos().count == 3)
        #expect(try sandbox.listedMemos(deleted: true).isEmpty)
    }

    /// An enhance that does not fit on the disk stops naming the cause, removes what it wrote
    /// and keeps the original; with room again the same enhance works.
    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"))
    func enhanceOnAFullDiskStopsAndKeepsTheOriginal() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.onTmpfs(size: "2m", """
              voicememo record --source tone:440@-6 --format wav --channels 2 --duration 6 --title "Big" > id.txt 2> record.err
              echo "record=$?"
              voicememo enhance Big > enhance.out 2> enhance.err; echo "enhance=$?"
              ls -a mnt/library > after.txt
              voicememo list --json > list.json 2> list.err; echo "list=$?"
              mount -o remount,size=4m mnt
              voicememo enhance Big > again.out 2> again.err; echo "again=$?"
            """)
        #expect(outcome.standardOutput.contains("record=0"), "\(outcome)")
        #expect(outcome.standardOutput.contains("enhance=1"), "\(outcome)")
        let message = try String(contentsOfFile: sandbox.file("enhance.err"), encoding: .utf8)
        #expect(message.contains("was not changed: the disk is full (ENOSPC)"), "\(message)")
        let after = try String(contentsOfFile: sandbox.file("after.txt"), encoding: .utf8)
        #expect(!after.contains(".edit-"), "what the enhance wrote is removed: \(after)")
        let list = try String(contentsOfFile: sandbox.file("list.json"), encoding: .utf8)
        let memos = try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]]
        #expect(memos?.count == 1 && memos?.first?["frames"] as? Int == 288_000 && memos?.first?["state"] as? String == "complete", "\(list)")
        #expect(outcome.standardOutput.contains("again=0"), "\(outcome) \((try? String(contentsOfFile: sandbox.file("again.err"), encoding: .utf8)) ?? "")")
    }
}

/// `export MEMO PATH --enhance`: the copy's noise suppressed on the way, the memo untouched;
/// with `--loudness`, enhanced first and then normalised onto the target.
@Suite struct EnhancedExportTests {
    /// speech over pink noise, 1.5 s of noise before it, at 48 kHz: `noisy.flac` in the library.
    static func noisyMemo(in sandbox: VoiceMemoSandbox) throws {
        let made = try sandbox.shell("""
            set -e
            espeak-ng -w speech22.wav "The meeting moved to Thursday at ten."
            sox -R speech22.wav -r 48000 -b 16 speech.wav gain -n -20 pad 1.5 1
            sox -R -n -r 48000 -b 16 -c 1 noise.wav synth "$(soxi -D speech.wav)" pinknoise gain -n -42
            sox -R -m -v 1 speech.wav -v 1 noise.wav "$VOICEMEMO_HOME/noisy.flac"
            """)
        #expect(made.status == 0, "\(made)")
    }

    @Test func theCopyIsEnhancedAndTheMemoIsNot() throws {
        let sandbox = try VoiceMemoSandbox()
        try Self.noisyMemo(in: sandbox)
        let before = try #require(try sandbox.listedMemos().first)
        let memoPath = try #require(before["path"] as? String)
        let original = try Data(contentsOf: URL(fileURLWithPath: memoPath))
        let plain = sandbox.file("plain.wav"), enhanced = sandbox.file("enhanced.wav")
        #expect(try sandbox.run("export", "noisy", plain).status == 0)
        let exported = try sandbox.run("export", "noisy", enhanced, "--enhance", timeout: .seconds(120))
        #expect(exported.status == 0, "\(exported)")
        let floorPlain = try EnhanceCommandTests.rmsDB(plain, start: 0.8, seconds: 0.6, in: sandbox)
        let floorEnhanced = try EnhanceCommandTests.rmsDB(enhanced, start: 0.8, seconds: 0.6, in: sandbox)
        #expect(floorPlain - floorEnhanced >= 15, "the noise went from \(floorPlain) to \(floorEnhanced) dBFS")
        let frames = try sandbox.shell("soxi -s '\(plain)'; soxi -s '\(enhanced)'; soxi -r '\(enhanced)'")
        let figures = frames.standardOutput.split(separator: "\n")
        #expect(figures.count == 3 && figures[0] == figures[1] && figures[2] == "48000", "\(frames)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: memoPath)) == original, "the memo's file is as it was")
        #expect(try sandbox.listedMemos().count == 1 && sandbox.listedMemos(deleted: true).isEmpty)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.file("."))
        #expect(!leftovers.contains { $0.contains(".enhance-") || $0.contains(".export-") }, "\(leftovers)")
    }

    @Test func enhancedThenNormalisedLandsOnTheTarget() throws {
        let sandbox = try VoiceMemoSandbox()
        try Self.noisyMemo(in: sandbox)
        let path = sandbox.file("podcast.mp3")
        let exported = try sandbox.run("export", "noisy", path, "--enhance", "--loudness", "-16", timeout: .seconds(180))
        #expect(exported.status == 0, "\(exported)")
        let measured = try LoudnessExportTests.analyze(path, in: sandbox)
        let loudness = try #require(measured["loudness_lufs"] as? Double)
        let truePeak = try #require(measured["true_peak_dbtp"] as? Double)
        #expect(abs(loudness + 16) <= 0.5 && truePeak <= -1, "\(loudness) LUFS, \(truePeak) dBTP")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.file("."))
        #expect(!leftovers.contains { $0.contains(".enhance-") }, "the enhanced intermediate is removed: \(leftovers)")
    }

    @Test func refusalsNameTheCauseAndWriteNothing() throws {
        let sandbox = try VoiceMemoSandbox()
        let made = try sandbox.shell("sox -n -r 768000 -c 1 -b 16 \"$VOICEMEMO_HOME/cd.wav\" synth 1 pinknoise gain -20")
        #expect(made.status == 0, "\(made)")
        let path = sandbox.file("cd.flac")
        let refused = try sandbox.run("export", "cd", path, "--enhance")
        // Every rate enhance refuses is one no export format takes either: that is said first.
        #expect(refused.status == 1 && refused.standardError.contains("768000 Hz is out of range"), "\(refused)")
        let both = try sandbox.run("export", "cd", path, "--enhance", "--loudness", "-16")
        #expect(both.status == 1 && both.standardError.contains("768000 Hz is out of range"), "\(both)")
        let labelsOnly = try sandbox.run("export", "cd", "--labels", sandbox.file("t.txt"), "--enhance")
        #expect(labelsOnly.status == 2 && labelsOnly.standardError.contains("--enhance only works with PATH"), "\(labelsOnly)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

/// `play MEMO --enhance` into the ALSA file test device: what is played has the noise down and
/// as many frames; the file is untouched; a rate enhance does not take is refused, a URL too.
@Suite struct EnhancedPlayTests {
    @Test func whatIsPlayedHasTheNoiseDown() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.installALSATestDevices(captureFile: "/dev/null", playbackFile: sandbox.file("played.raw"))
        let made = try sandbox.shell("""
            set -e
            espeak-ng -w speech22.wav "The meeting moved to Thursday at ten."
            sox -R speech22.wav -r 48000 -c 2 -b 16 speech.wav gain -n -20 pad 1.5 1
            sox -R -n -r 48000 -c 2 -b 16 noise.wav synth "$(soxi -D speech.wav)" pinknoise gain -n -42
            sox -R -m -v 1 speech.wav -v 1 noise.wav noisy.wav
            """)
        #expect(made.status == 0, "\(made)")
        let raw = "-t raw -r 48000 -e signed -b 16 -c 2"
        let plain = try sandbox.run("play", sandbox.file("noisy.wav"), "--device", "voicememo_playback")
        #expect(plain.status == 0, "\(plain)")
        let plainFloor = try sandbox.shell("sox \(raw) played.raw -n trim 0.8 0.6 stat 2>&1 | grep 'RMS     amplitude'; wc -c < played.raw")
        let enhanced = try sandbox.run("play", sandbox.file("noisy.wav"), "--device", "voicememo_playback", "--enhance")
        #expect(enhanced.status == 0, "\(enhanced)")
        let enhancedFloor = try sandbox.shell("sox \(raw) played.raw -n trim 0.8 0.6 stat 2>&1 | grep 'RMS     amplitude'; wc -c < played.raw")
        func figures(_ outcome: ProcessOutcome) -> [Double] {
            outcome.standardOutput.split(separator: "\n").compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
        }
        let before = figures(plainFloor), after = figures(enhancedFloor)
        #expect(before.count == 2 && after.count == 2, "\(plainFloor) \(enhancedFloor)")
        guard before.count == 2, after.count == 2 else { return }
        let drop = 20 * log10(before[0] / max(after[0], 1e-9))
        print("EnhancedPlayTests: the noise played \(drop) dB down")
        #expect(drop >= 15, "the noise played went from \(before[0]) to \(after[0]) (\(drop) dB)")
        #expect(before[1] == after[1], "as many frames played: \(before[1]) and \(after[1]) bytes")
    }

    @Test func aRateEnhanceDoesNotTakeIsRefused() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.installALSATestDevices(captureFile: "/dev/null", playbackFile: sandbox.file("played.raw"))
        let made = try sandbox.shell("sox -n -r 768000 -c 1 -b 16 cd.wav synth 1 pinknoise gain -20")
        #expect(made.status == 0, "\(made)")
        let refused = try sandbox.run("play", sandbox.file("cd.wav"), "--device", "voicememo_playback", "--enhance")
        #expect(refused.status == 1 && refused.standardError.contains("this audio is at 768000 Hz"), "\(refused)")
        let played = (try? Data(contentsOf: URL(fileURLWithPath: sandbox.file("played.raw")))) ?? Data()
        #expect(played.isEmpty, "nothing was played")
        let stream = try sandbox.run("play", "http://127.0.0.1:9/live.mp3", "--enhance")
        #expect(stream.status == 2 && stream.standardError.contains("--enhance"), "\(stream)")
    }
}
