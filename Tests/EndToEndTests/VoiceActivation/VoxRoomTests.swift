import TestSupport
import Foundation
import Testing

/// `voicememo record --vox --vox-silence 2s` in noisy rooms: three espeak-ng phrases 4 s apart
/// in seeded noise (`voicememo-bench room`), played in unpaced. Before the detector judged
/// the end of a take on its RMS, a white-noise room at −55 dBFS RMS gave 1 memo for 3 phrases
/// (every block's peak was above the −46 dB stop threshold) and mains hum at −52 gave 2.
@Suite struct VoxRoomTests {
    static let rate = 48_000

    struct Phrase {
        var onset: Int
        var end: Int
    }

    /// Writes `room.wav` and returns where its phrases are.
    static func makeRoom(_ noise: String, dBFS: Int, seed: Int, in sandbox: VoiceMemoSandbox) throws -> [Phrase] {
        let outcome = try sandbox.shell("voicememo-bench room \(noise) \(dBFS) \(seed) room.wav")
        try #require(outcome.status == 0, "making the room failed: \(outcome)")
        let phrases = outcome.standardOutput.split(separator: "\n").compactMap { line -> Phrase? in
            let numbers = line.split(separator: " ").compactMap { Int($0) }
            return numbers.count == 2 ? Phrase(onset: numbers[0], end: numbers[1]) : nil
        }
        try #require(phrases.count == 3, "\(outcome)")
        return phrases
    }

    @Test(arguments: [("white", -55, 1), ("pink", -54, 2), ("hum", -52, 3), ("brown", -52, 4), ("fan", -52, 5), ("babble", -46, 6)])
    func threePhrasesInARoomMakeThreeMemosEndingHangTimeAfterEach(noise: String, dBFS: Int, seed: Int) throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let phrases = try Self.makeRoom(noise, dBFS: dBFS, seed: seed, in: sandbox)
        let room = try TestSignals.readInt16(sandbox.file("room.wav")).samples
        let outcome = try sandbox.run(
            "record", "--vox", "--vox-silence", "2s", "--source", "file:" + sandbox.file("room.wav"), "--format", "wav",
            "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let memos = try outcome.standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(memos.count == 3, "\(noise) at \(dBFS) dBFS: \(outcome)")
        for (memo, phrase) in zip(memos, phrases) {
            let samples = try TestSignals.readInt16(try #require(memo["path"] as? String)).samples
            let start = try #require(Self.offset(of: samples, in: room))
            let end = start + samples.count
            let endError = Double(end - phrase.end) / Double(Self.rate) - 2.0
            print("vox-room: \(noise) \(dBFS) dBFS: starts \(Double(phrase.onset - start) / Double(Self.rate)) s before the onset, ends \(endError) s after phrase + 2.0 s")
            #expect(start <= phrase.onset, "the onset is kept")
            #expect(start >= phrase.onset - Self.rate * 3 / 10 - Self.rate / 50, "no more than the pre-roll before the onset")
            #expect(endError >= -0.05 && endError <= 0.3, "ends 2.0 s +0.3/-0.05 after the phrase: \(endError)")
        }
    }

    /// `--vox-calibrate 2s` in pink noise at −55 dBFS RMS: the threshold becomes the room + 12 dB
    /// (−43), said on standard error, and the three phrases still make three memos.
    @Test func calibrationSetsTheThresholdAboveTheRoom() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        _ = try Self.makeRoom("pink", dBFS: -55, seed: 7, in: sandbox)
        let outcome = try sandbox.run(
            "record", "--vox", "--vox-calibrate", "2s", "--source", "file:" + sandbox.file("room.wav"), "--format", "wav")
        #expect(outcome.status == 0, "\(outcome)")
        let said = outcome.standardError.split(separator: "\n").first { $0.hasPrefix("threshold ") } ?? ""
        let threshold = said.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
        #expect(abs(threshold + 43) <= 0.5, "\(outcome)")
        #expect(outcome.standardOutput.split(separator: "\n").count == 3, "\(outcome)")
    }

    /// A room within 10 dB of the threshold (white noise at −45 dBFS RMS, threshold −40):
    /// record says so on standard error, naming both levels.
    @Test func aRoomCloseToTheThresholdIsReported() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        _ = try Self.makeRoom("white", dBFS: -45, seed: 6, in: sandbox)
        let outcome = try sandbox.run(
            "record", "--vox", "--source", "file:" + sandbox.file("room.wav"), "--format", "wav", "--duration", "6")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardError.contains("room noise -45 dB is close to the -40 dB threshold"), "\(outcome)")
        let quiet = try Self.makeRoom("white", dBFS: -60, seed: 6, in: sandbox)
        #expect(quiet.count == 3)
        let calm = try sandbox.run(
            "record", "--vox", "--source", "file:" + sandbox.file("room.wav"), "--format", "wav", "--duration", "6")
        #expect(!calm.standardError.contains("close to"), "\(calm)")
    }

    /// Whether strace can run a program here with a syscall's return delayed (ptrace allowed).
    static let straceCanDelay = HostProbe.succeeds(
        "/usr/bin/strace", ["-f", "-qq", "-o", "/dev/null", "-e", "trace=getpid", "-e", "inject=getpid:delay_exit=1000", "/bin/true"])

    /// Input that ends before `record --vox` first looks at the detector still gets its lines.
    /// A file read whole before the first look (the main thread held up just after it started
    /// the capture thread, on a loaded machine) must still print them, so the status is read
    /// once more after the input ended. strace holds
    /// the main thread 400 ms on returning from its second `clone3` (the capture thread's: the
    /// first starts the take controller), so the 6 s are read before it looks.
    @Test(.enabled(if: straceCanDelay, "needs strace with ptrace allowed"))
    func theRoomAndTheCalibrationAreSaidWhenTheInputEndsBeforeTheFirstLook() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        _ = try Self.makeRoom("white", dBFS: -45, seed: 6, in: sandbox)
        let held = "strace -f -qq -o /dev/null -e trace=clone3 -e inject=clone3:delay_exit=400000:when=2"
        let close = try sandbox.shell(
            "\(held) voicememo record --vox --source file:room.wav --format wav --duration 6 --no-transcribe")
        #expect(close.status == 0, "\(close)")
        #expect(close.standardError.contains("room noise -45 dB is close to the -40 dB threshold"), "\(close)")
        _ = try Self.makeRoom("pink", dBFS: -55, seed: 7, in: sandbox)
        let calibrated = try sandbox.shell(
            "\(held) voicememo record --vox --vox-calibrate 2s --source file:room.wav --format wav --duration 6 --no-transcribe")
        #expect(calibrated.status == 0, "\(calibrated)")
        #expect(calibrated.standardError.contains("threshold -43.0 dB: the room's level + 12 dB"), "\(calibrated)")
    }

    /// Where `part` lies in `whole`, by its loudest 1024 samples (the pre-roll of mains hum
    /// repeats every 20 ms and would match too early).
    static func offset(of part: [Int16], in whole: [Int16]) -> Int? {
        let length = min(1024, part.count)
        guard length > 0, whole.count >= part.count else { return nil }
        let loudest = part.indices.max { abs(Int(part[$0])) < abs(Int(part[$1])) } ?? 0
        let offset = max(0, min(loudest - length / 2, part.count - length))
        let probe = part[offset..<offset + length]
        return (offset...(whole.count - part.count + offset)).first { start in
            whole[start] == probe.first && whole[start..<start + length].elementsEqual(probe)
        }.map { $0 - offset }
    }
}
