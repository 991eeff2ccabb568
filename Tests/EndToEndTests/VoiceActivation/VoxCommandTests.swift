import TestSupport
import Foundation
import SoundFiles
import Testing

/// `voicememo record --vox` on a file of three spoken phrases (espeak-ng) and a click,
/// separated by 3 s of noise at −60 dBFS, played in unpaced.
@Suite struct VoxCommandTests {
    static let rate = 48_000
    static let phrases = [
        "Remember to buy milk and bread on the way home",
        "Call Anna about the concert tickets",
        "The meeting moved to Thursday at three in the afternoon, please tell everyone",
    ]

    /// Where each phrase lies in the test file: first and one-past-last sample above −50 dBFS.
    struct Phrase {
        var onset: Int
        var end: Int
    }

    /// Builds `mix.wav` (noise 3 s, phrase, noise 3 s, phrase, noise 3 s, click 0.2 s, noise 3 s,
    /// phrase, noise 3 s) and returns its samples and the phrases' positions.
    static func makeTestFile(in sandbox: VoiceMemoSandbox) throws -> ([Int16], [Phrase]) {
        var script = "set -e\n" + speakingScript(phrases.indices)
        script += """
            sox -n -r 48000 -b 16 -c 1 gap.wav trim 0 3
            sox -n -r 48000 -b 16 -c 1 click.wav synth 0.2 sine 2000 vol 0.5
            sox gap.wav phrase0.wav gap.wav phrase1.wav gap.wav click.wav gap.wav phrase2.wav gap.wav clean.wav
            sox -R -n -r 48000 -b 16 -c 1 noise.wav synth "$(soxi -D clean.wav)" whitenoise vol 0.00173
            sox -m -v 1 clean.wav -v 1 noise.wav -b 16 mix.wav
            """
        let outcome = try sandbox.shell(script)
        try #require(outcome.status == 0, "building the test file failed: \(outcome)")
        var phrases: [Phrase] = []
        var offset = 3 * rate
        let quiet: Int16 = 104  // −50 dBFS
        for index in 0..<3 {
            let samples = try TestSignals.readInt16(sandbox.file("phrase\(index).wav")).samples
            let onset = try #require(samples.firstIndex { abs(Int($0)) > quiet })
            let last = try #require(samples.lastIndex { abs(Int($0)) > quiet })
            phrases.append(Phrase(onset: offset + onset, end: offset + last + 1))
            offset += samples.count + 3 * rate
            if index == 1 { offset += rate / 5 + 3 * rate }
        }
        return (try TestSignals.readInt16(sandbox.file("mix.wav")).samples, phrases)
    }

    /// Shell lines that speak each of `phrases[indices]` into `phraseINDEX.wav` (espeak-ng,
    /// then 16-bit at 48 kHz in `channels` channels, each the same).
    static func speakingScript(_ indices: some Sequence<Int>, channels: Int = 1) -> String {
        indices.map { index in
            "espeak-ng -w raw\(index).wav \"\(phrases[index])\"\n"
                + "sox raw\(index).wav -r 48000 -b 16 -c \(channels) phrase\(index).wav\n"
        }.joined()
    }

    /// Where `part` lies in `whole` (the memo is the source's samples, bit for bit).
    static func offset(of part: [Int16], in whole: [Int16]) -> Int? {
        let probe = Array(part.prefix(256))
        guard !probe.isEmpty, whole.count >= probe.count else { return nil }
        return (0...(whole.count - probe.count)).first { start in
            whole[start] == probe[0] && Array(whole[start..<start + probe.count]) == probe
        }
    }

    @Test func threePhrasesAndAClickMakeExactlyThreeMemosHoldingEachOnset() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let (mix, phrases) = try Self.makeTestFile(in: sandbox)
        let outcome = try sandbox.run("record", "--vox", "--source", "file:" + sandbox.file("mix.wav"), "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.count == 3, "\(outcome)")
        let memos = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(try sandbox.listedMemos().count == 3)
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.libraryDirectory.path)
        #expect(files.filter { $0.hasSuffix(".flac") }.count == 3)
        for (memo, phrase) in zip(memos, phrases) {
            let path = try #require(memo["path"] as? String)
            #expect((memo["title"] as? String)?.hasPrefix("Memo ") == true)
            let samples = try TestSignals.readInt16(path).samples
            let start = try #require(Self.offset(of: samples, in: mix))
            let end = start + samples.count
            print("vox-measure: onset \(phrase.onset) end \(phrase.end) memo \(start)..<\(end): starts \(Double(phrase.onset - start) / Double(Self.rate)) s before the onset, ends \(Double(end - phrase.end) / Double(Self.rate)) s after the phrase")
            #expect(start <= phrase.onset && phrase.onset < end)
            #expect(start >= phrase.onset - Self.rate * 3 / 10 - Self.rate / 50)
            #expect(end <= phrase.end + 3 * Self.rate + Self.rate / 10, "the default hang time: 3 s")
        }
    }

    @Test func aTakeThatIsStillSpeakingWhenTheDurationEndsIsKept() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.run("record", "--vox", "--vox-level-only", "--source", "tone:440@-12", "--duration", "3", "--format", "wav")
        #expect(outcome.status == 0, "\(outcome)")
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1)
        let duration = memos.first?["duration"] as? Double ?? 0
        #expect(duration > 2.9 && duration <= 3.0)
    }

    @Test func aSignalEndsTheRunAndKeepsTheTakeInProgress() throws {
        let sandbox = try VoiceMemoSandbox()
        // The 2 s count from when the input is listened to (the product's own event), not from
        // the start: a start slowed by 1.6 s (SIGSTOP for that long, as a loaded machine may)
        // left no take (1.0 s: a take of 0.92 s), and a SIGINT in its first moments exits 130.
        let outcome = try sandbox.shell("""
            VOICEMEMO_EVENT_LOG="$PWD/events.log" voicememo record --vox --vox-level-only --source tone:440@-12 --format wav --json > out.json 2> err.txt &
            pid=$!
            listening() { grep -qs '^vox_listening' events.log || ! kill -0 $pid 2>/dev/null; }
            wait_until 30 "record --vox to listen" listening || exit 124
            sleep 2
            kill -INT $pid
            wait $pid
            echo "status $?"
            """)
        #expect(outcome.standardOutput.contains("status 0"), "\(outcome)")
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1)
        let duration = memos.first?["duration"] as? Double ?? 0
        #expect(duration > 0.5 && duration < 10, "\(memos)")
        let printed = try String(contentsOfFile: sandbox.file("out.json"), encoding: .utf8)
        #expect(printed.split(separator: "\n").count == 1)
    }

    @Test(arguments: [
        (["--vox-silence", "-1"], "--vox-silence"),
        (["--vox-silence", "0"], "--vox-silence"),
        (["--vox-threshold", "3"], "--vox-threshold"),
        (["--vox-preroll", "20s"], "--vox-preroll"),
        (["--vox-min", "abc"], "--vox-min"),
        (["--output", "x.wav"], "--output"),
        (["--vox-calibrate", "0"], "--vox-calibrate"),
        (["--vox-calibrate", "61s"], "--vox-calibrate"),
        (["--vox-calibrate", "2s", "--vox-threshold", "-30"], "--vox-calibrate"),
    ])
    func badVoxValuesAreUsageErrorsNamingTheFlag(flags: [String], named: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run(
            arguments: ["record", "--vox", "--source", "tone:440@-12", "--duration", "1"] + flags)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains(named), "\(outcome)")
        #expect(try sandbox.listedMemos().isEmpty)
    }
}
