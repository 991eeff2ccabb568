import TestSupport
import Foundation
import SoundFiles
import Testing

/// kill -9 as a loop: for each format that can be the default (FLAC is; WAV through the
/// config file; both passed here as --format), 20 recordings into one library at once, each killed at a seeded random
/// moment; the next `list` recovers every one of them.
@Suite(.serialized) struct KillNineLoopTests {
    static let recordings = 20

    /// Kill moments, 0.5–2.0 s after each recording's file appears, from a fixed seed.
    static func killDelays(seed: UInt64) -> [Double] {
        var generator = SplitMix64(seed: seed)
        return (0..<recordings).map { _ in 0.5 + 1.5 * Double(generator.next() >> 11) / Double(1 << 53) }
    }

    @Test(arguments: ["flac", "wav"])
    func twentyKilledRecordingsAreAllRecovered(format: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let delays = Self.killDelays(seed: format == "flac" ? 0xF1AC : 0x3A7)
        // Each recording's start is the moment its first frame was captured, as `record` itself
        // logs it (VOICEMEMO_EVENT_LOG, with what it has recorded every 100 ms), and its end the
        // kill, read by the shell's own clock just before it ($EPOCHREALTIME: no fork between),
        // or the last moment `record` logged, whichever is later: the kill cannot be earlier.
        // Nothing depends on when a polling loop among 20 busy recorders noticed something.
        let outcome = try sandbox.shell("""
            delays=(\(delays.map { String(format: "%.3f", $0) }.joined(separator: " ")))
            one() {
                VOICEMEMO_EVENT_LOG="$PWD/events$1.txt" voicememo record --source tone:440@-6 --format \(format) --title "Killed $1" > id$1.txt 2> err$1.txt &
                local pid=$! first="" status=0 n=$1
                # Called from here, so it sees this recording's n and pid.
                started() { grep -qs '^first_frame ' events$n.txt || ! kill -0 $pid 2>/dev/null; }
                wait_until 60 "record $1's first frame" started || return
                if ! grep -qs '^first_frame ' events$1.txt; then
                    wait $pid; status=$?
                    echo "record $1 ended early with exit status $status; its stderr: $(cat err$1.txt)" >&2
                    return
                fi
                sleep ${delays[$1]}
                # Read just before the kill (no fork between): the kill is at this moment or later.
                local killed=$EPOCHREALTIME
                kill -9 $pid
                wait $pid 2>/dev/null
                first=$(grep -m1 '^first_frame ' events$1.txt | cut -d' ' -f2)
                echo "$(cat id$1.txt) $first $killed $1" > times$1.txt
            }
            began=$(date +%s%N)
            for i in $(seq 0 \(Self.recordings - 1)); do one $i & done
            wait
            echo "loop_ms=$(( ($(date +%s%N) - began) / 1000000 ))"
            cat times*.txt
            """, timeout: .seconds(90))
        struct Killed {
            var firstFrame: Double
            var kill: Double
            /// `record`'s own `recorded FRAMES` lines, all written before it died: (time, frames).
            var recorded: [(time: Double, frames: Int)]
        }
        var killed: [Int: Killed] = [:]
        for line in outcome.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let id = Int(fields[0]), let start = Double(fields[1]), let end = Double(fields[2])
            else { continue }
            let events = (try? String(contentsOfFile: sandbox.file("events\(fields[3]).txt"), encoding: .utf8)) ?? ""
            let recorded = events.split(separator: "\n").compactMap { line -> (time: Double, frames: Int)? in
                let words = line.split(separator: " ")
                guard words.count == 3, words[0] == "recorded", let frames = Int(words[1]), let time = Double(words[2])
                else { return nil }
                return (time, frames)
            }
            killed[id] = Killed(firstFrame: start, kill: max(end, recorded.last?.time ?? end), recorded: recorded)
        }
        #expect(killed.count == Self.recordings, "\(outcome)")

        let list = try sandbox.run("list", "--json")
        #expect(list.status == 0, "\(list)")
        #expect(list.standardError.contains("recovered"), "the next start says it recovered them: \(list)")
        let memos = try sandbox.listedMemos()
        #expect(memos.count == Self.recordings)
        var losses: [Double] = []
        var ages: [Double] = []
        for memo in memos {
            let id = memo["id"] as? Int ?? -1
            #expect(memo["state"] as? String == "recovered", "\(memo)")
            guard let times = killed[id], let duration = memo["duration"] as? Double, let frames = memo["frames"] as? Int else {
                Issue.record("memo \(id) has no kill time, duration or frames: \(memo)")
                continue
            }
            let seconds = times.kill - times.firstFrame
            losses.append(seconds - duration)
            // The first frame's time is estimated from the chunk that brought it (20 ms for a tone).
            #expect(duration <= seconds + 0.05, "memo \(id): \(duration) s listed, killed \(seconds) s after its first frame")
            // The promise: what the recording had taken more than 0.5 s before the kill is in the
            // file. The age of the oldest frame missing is the time from the first `recorded`
            // moment whose count the file does not reach to the kill (0 when it reaches them all).
            // Wall-clock time in which the process was not scheduled at all (20 recorders starting
            // on two cores) is not counted against it: nothing was captured then.
            let firstShort = times.recorded.first { $0.frames > frames }
            let age = firstShort.map { times.kill - $0.time } ?? 0
            ages.append(age)
            #expect(age <= 0.5, "memo \(id): \(frames) frames in the file; \(firstShort.map { "\($0.frames) were recorded \(age) s before the kill" } ?? "")")
            #expect(!times.recorded.isEmpty, "memo \(id): record logged what it recorded")
            let reader = try SoundFileReader(path: try #require(memo["path"] as? String))
            #expect(abs(reader.info.duration - duration) < 0.05, "memo \(id): the file plays what the index says")
            reader.close()
        }
        let integrity = try sandbox.shell("sqlite3 \"$VOICEMEMO_HOME/index.sqlite3\" 'PRAGMA integrity_check'")
        #expect(integrity.standardOutput == "ok\n", "\(integrity)")
        let worst = losses.max() ?? .infinity
        let loop = outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix("loop_ms=") } ?? ""
        print(String(format: "KillNineLoopTests: %@: %d/%d recovered; oldest frame missing at the kill: worst %.3f s; kill − first frame − duration: worst %.3f s, mean %.3f s, best %.3f s; %@; integrity %@",
            format, memos.filter { $0["state"] as? String == "recovered" }.count, Self.recordings,
            ages.max() ?? 0, worst, losses.reduce(0, +) / Double(max(1, losses.count)), losses.min() ?? 0, String(loop),
            integrity.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}
