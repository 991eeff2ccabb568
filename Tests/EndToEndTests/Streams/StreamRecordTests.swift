import Foundation
import Testing

/// `record --source url:URL` and `meter --source url:URL`: a live MP3 from the loopback test
/// server (Tests/stream-server.py), paced to real time by the server, recorded into a memo.
@Suite struct StreamRecordTests {
    private func setUp() throws -> (VoiceMemoSandbox, StreamTestServer) { try StreamTestServer.servingATone() }

    private func memos(_ sandbox: VoiceMemoSandbox) throws -> [[String: Any]] { try StreamTestServer.memos(sandbox) }

    @Test func recordsFourSecondsOfALiveStreamIntoAMemo() throws {
        let (sandbox, server) = try setUp()
        let url = server.url("live/tone.mp3?bps=16000")
        let outcome = try sandbox.run("record", "--source", "url:" + url, "--duration", "4", "--title", "Radio show")
        #expect(outcome.status == 0, "\(outcome)")
        let memo = try #require(try memos(sandbox).first)
        #expect(memo["title"] as? String == "Radio show")
        let duration = try #require(memo["duration"] as? Double)
        #expect(abs(duration - 4) <= 0.05, "recorded \(duration) s for --duration 4")
        let peak = try #require(memo["peak_db"] as? Double)
        #expect(peak > -24 && peak < -18, "the stream's tone was recorded (ffmpeg's sine is at -18 dBFS before MP3): \(peak)")
        #expect(memo["sample_rate"] as? Int == 48_000)
    }

    @Test func droppedStreamIsReconnectedAndTheGapCounted() throws {
        let (sandbox, server) = try setUp()
        let outcome = try sandbox.run(
            "record", "--source", "url:" + server.url("drop/tone.mp3?bps=16000&after=1.5"), "--duration", "4", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardError.contains("warning: the stream dropped 1 time(s) and was reconnected;"), "\(outcome)")
        let memo = try #require(try memos(sandbox).first)
        let duration = try #require(memo["duration"] as? Double)
        #expect(abs(duration - 4) <= 0.05, "4 s recorded around the drop: \(duration)")
        // "…; 0.69 s (33054 frames) not recorded": the first reconnect waits 0.5 s, connecting adds a little.
        let warning = try #require(outcome.standardError.split(separator: "\n").first { $0.contains("not recorded") })
        let lost = try #require(warning.split(separator: "(").last.flatMap { Int($0.prefix { $0.isNumber }) })
        #expect(lost >= 24_000 && lost < 48_000 * 3, "the gap is known: \(lost) frames")
    }

    /// A 10 s file sent without a Content-Length or ICY headers (closed at its
    /// end) is recorded once: `--duration 25` ends with the file, not with 25 s of its opening
    /// repeated after "reconnects".
    @Test func fileSentUntilTheConnectionClosesIsRecordedOnceToItsEnd() throws {
        let (sandbox, server) = try setUp()
        let outcome = try sandbox.run(
            "record", "--source", "url:" + server.url("unsized/tone.mp3"), "--duration", "25", "--title", "Once",
            timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(!outcome.standardError.contains("dropped"), "no reconnect: \(outcome)")
        let memo = try #require(try memos(sandbox).first)
        let duration = try #require(memo["duration"] as? Double)
        #expect(duration > 9.9 && duration < 10.1, "the 10 s file, once: \(duration) s")
    }

    @Test func meterShowsTheStreamsLevels() throws {
        let (sandbox, server) = try setUp()
        let outcome = try sandbox.run(
            "meter", "--source", "url:" + server.url("live/tone.mp3?bps=16000"), "--duration", "1", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let summary = try #require(outcome.standardOutput.split(separator: "\n").last)
        let object = try #require(JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any])
        #expect(object["summary"] as? Bool == true, "\(outcome)")
        let channels = try #require(object["channels"] as? [[String: Double]])
        #expect(channels.count == 2)
        for channel in channels {
            // A sine's RMS is 3 dB under its peak.
            let peak = try #require(channel["peak_db"]), average = try #require(channel["avg_db"])
            #expect(peak > -24 && peak < -18, "\(outcome)")
            #expect(abs(peak - average - 3.01) < 0.2, "\(outcome)")
        }
    }

    @Test func unreachableStreamIsNamedAndKeepsNoMemo() throws {
        let (sandbox, server) = try setUp()
        let outcome = try sandbox.run("record", "--source", "url:" + server.url("status/404"), "--duration", "1")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("HTTP 404 Not Found from 127.0.0.1:"), "\(outcome)")
        #expect(try memos(sandbox).isEmpty, "no memo for a stream that never played")
    }

    @Test(arguments: ["url:ftp://127.0.0.1/x.mp3", "url:", "url:http:///x"])
    func badURLSourceIsAUsageError(source: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("record", "--source", source, "--duration", "1")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("--source"), "\(outcome)")
        #expect(outcome.standardError.contains("http:// or https://"), "\(outcome)")
    }
}
