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
        var state = seed
        return (0..<recordings).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return 0.5 + 1.5 * Double(state >> 11) / Double(1 << 53)
        }
    }

    @Test(arguments: ["flac", "wav"])
    func twentyKilledRecordingsAreAllRecovered(format: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let delays = Self.killDelays(seed: format == "flac" ? 0xF1AC : 0x3A7)
        let outcome = try sandbox.shell("""
            delays=(\(delays.map { String(format: "%.3f", $0) }.joined(separator: " ")))
            index="$VOICEMEMO_HOME/index.sqlite3"
            one() {
                voicememo record --source tone:440@-6 --format \(format) --title "Killed $1" > id$1.txt 2> err$1.txt &
                local pid=$! id="" path=""
                while [ ! -s id$1.txt ]; do kill -0 $pid 2>/dev/null || { echo "record $1 ended early" >&2; return; }; sleep 0.01; done
                id=$(cat id$1.txt)
                while [ -z "$path" ]; do
                    path=$(sqlite3 "$index" ".timeout 5000" "SELECT path FROM memos WHERE id = $id" 2>/dev/null)
                    [ -n "$path" ] || sleep 0.01
                done
                case "$path" in /*) ;; *) path="$VOICEMEMO_HOME/$path" ;; esac
                while [ ! -e "$path" ]; do sleep 0.01; done
                local start=$(date +%s.%N)
                sleep ${delays[$1]}
                kill -9 $pid
                local end=$(date +%s.%N)
                wait $pid 2>/dev/null
                echo "$id $start $end" > times$1.txt
            }
            began=$(date +%s%N)
            for i in $(seq 0 \(Self.recordings - 1)); do one $i & done
            wait
            echo "loop_ms=$(( ($(date +%s%N) - began) / 1000000 ))"
            cat times*.txt
            """, timeout: .seconds(90))
        var recordedFor: [Int: Double] = [:]
        for line in outcome.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let id = Int(fields[0]), let start = Double(fields[1]), let end = Double(fields[2]) else { continue }
            recordedFor[id] = end - start
        }
        #expect(recordedFor.count == Self.recordings, "\(outcome)")

        let list = try sandbox.run("list", "--json")
        #expect(list.status == 0, "\(list)")
        #expect(list.standardError.contains("recovered"), "the next start says it recovered them: \(list)")
        let memos = try sandbox.listedMemos()
        #expect(memos.count == Self.recordings)
        var losses: [Double] = []
        for memo in memos {
            let id = memo["id"] as? Int ?? -1
            #expect(memo["state"] as? String == "recovered", "\(memo)")
            guard let seconds = recordedFor[id], let duration = memo["duration"] as? Double else {
                Issue.record("memo \(id) has no kill time or duration: \(memo)")
                continue
            }
            losses.append(seconds - duration)
            // The start is when the shell noticed the file, polling among 20 busy recorders: on a
            // loaded machine that can lag the first written frame by a few hundred ms.
            #expect(duration <= seconds + 0.5, "memo \(id): \(duration) s listed, killed after \(seconds) s")
            let reader = try SoundFileReader(path: try #require(memo["path"] as? String))
            #expect(abs(reader.info.duration - duration) < 0.05, "memo \(id): the file plays what the index says")
            reader.close()
        }
        let integrity = try sandbox.shell("sqlite3 \"$VOICEMEMO_HOME/index.sqlite3\" 'PRAGMA integrity_check'")
        #expect(integrity.standardOutput == "ok\n", "\(integrity)")
        let worst = losses.max() ?? .infinity
        let loop = outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix("loop_ms=") } ?? ""
        print(String(format: "KillNineLoopTests: %@: %d/%d recovered, loss worst %.3f s, mean %.3f s, best %.3f s; %@; integrity %@",
            format, memos.filter { $0["state"] as? String == "recovered" }.count, Self.recordings,
            worst, losses.reduce(0, +) / Double(max(1, losses.count)), losses.min() ?? 0, String(loop),
            integrity.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(worst <= 0.5, "worst loss \(worst) s: \(losses)")
    }
}
