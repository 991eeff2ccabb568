import Foundation
import Testing

/// `record --at TIME`: it sleeps without CPU until the time, then records; a stop signal while
/// it waits leaves nothing.
@Suite struct ScheduledRecordingTests {
    /// The value of `name` in lines of `name=value` words.
    static func value(_ name: String, in text: String) -> Double? {
        text.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix(name + "=") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }

    @Test func aRecordingAtATimeStartsThenAndWaitsWithoutCPU() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["TZ"] = "UTC"
        sandbox.environment["VOICEMEMO_EVENT_LOG"] = sandbox.file("events.log")
        let outcome = try sandbox.shell("""
            target=$(( $(date +%s) + 4 ))
            at=$(date -u -d @$target +%H:%M:%S)
            voicememo record --at "$at" --duration 1 --source tone:440@-20 --no-transcribe --title Scheduled > id.txt 2> err.txt &
            pid=$!
            sleep 2.5
            ticks=$(awk '{print $14 + $15}' /proc/$pid/stat)
            wait $pid
            echo "status=$? target=$target ticks=$ticks hz=$(getconf CLK_TCK)"
            """, timeout: .seconds(30))
        let status = Self.value("status", in: outcome.standardOutput)
        let target = try #require(Self.value("target", in: outcome.standardOutput), "\(outcome)")
        #expect(status == 0, "\(outcome) \((try? String(contentsOfFile: sandbox.file("err.txt"), encoding: .utf8)) ?? "")")
        // 2.5 s of waiting cost at most a few clock ticks (the process's start included).
        let ticks = try #require(Self.value("ticks", in: outcome.standardOutput))
        let hz = Self.value("hz", in: outcome.standardOutput) ?? 100
        #expect(ticks / hz <= 0.3, "CPU while waiting: \(ticks / hz) s")
        let log = try String(contentsOfFile: sandbox.file("events.log"), encoding: .utf8)
        let first = try #require(
            log.split(separator: "\n").first { $0.hasPrefix("first_frame ") }.flatMap { Double($0.split(separator: " ")[1]) }, "\(log)")
        // The first frame's time is when its block began, up to a block (10 ms) before the wait ended.
        #expect(first >= target - 0.1 && first <= target + 1, "the first frame at \(first - target) s from the time asked")
        let memos = try sandbox.listedMemos()
        #expect(memos.map { $0["title"] as? String } == ["Scheduled"])
        if let created = memos.first?["created"] as? String { #expect(!created.isEmpty) }
    }

    @Test func aStopSignalWhileWaitingRecordsNothing() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_EVENT_LOG"] = sandbox.file("events.log")
        let outcome = try sandbox.shell("""
            at=$(date -d '+1 hour' +%H:%M)
            voicememo record --at "$at" --source tone:440@-20 --no-transcribe > id.txt 2> err.txt &
            pid=$!
            # Its signal handlers are in place once it has noted the time it waits for.
            wait_until 10 "the wait's start" grep -q '^scheduled_start' events.log
            kill -INT $pid
            wait $pid
            echo "status=$?"
            """, timeout: .seconds(30))
        #expect(Self.value("status", in: outcome.standardOutput) == 130, "\(outcome)")
        let said = try String(contentsOfFile: sandbox.file("err.txt"), encoding: .utf8)
        #expect(said.contains("interrupted by SIGINT before the recording's start at") && said.contains("nothing was recorded"), "\(said)")
        #expect(try sandbox.listedMemos().isEmpty)
        #expect(try String(contentsOfFile: sandbox.file("id.txt"), encoding: .utf8).isEmpty, "no id: no memo was begun")
    }
}
