import TestSupport
import Foundation
import Testing

/// `voicememo meter --json`: levels through the whole pipeline (source → capture thread →
/// meter → snapshot → summary).
@Suite struct MeterCommandTests {
    struct Channel: Decodable {
        let avg_db: Double
        let peak_db: Double
    }

    struct Line: Decodable {
        let t: Double
        let channels: [Channel]
        let summary: Bool?
    }

    static func summary(_ outcome: ProcessOutcome) throws -> Line {
        let lines = outcome.standardOutput.split(separator: "\n")
        let decoded = try lines.map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        #expect(decoded.count >= 2, "updates, then the summary")
        #expect(decoded.dropLast().allSatisfy { $0.summary == nil })
        guard let last = decoded.last, last.summary == true else {
            throw CancellationError()
        }
        return last
    }

    @Test(arguments: [0.0, -6, -12, -20, -40, -60])
    func toneLevelsReadTheirTheory(level: Double) throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.run(
            "meter", "--source", "tone:1000@\(Int(level))", "--duration", "1", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let summary = try Self.summary(outcome)
        #expect(abs(summary.t - 1) < 1e-9, "exactly the duration")
        for channel in summary.channels {
            #expect(abs(channel.peak_db - level) <= 0.05, "peak \(channel.peak_db)")
            #expect(abs(channel.avg_db - (level - 3.0103)) <= 0.1, "average \(channel.avg_db)")
        }
    }

    @Test func perChannelLevelsFromAFileAndSilence() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let path = sandbox.file("levels.wav")
        try TestSignals.writeSines(to: path, levels: [-6, -30, nil], seconds: 2)
        let outcome = try sandbox.run("meter", "--source", "file:\(path)", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let summary = try Self.summary(outcome)
        #expect(summary.channels.count == 3)
        #expect(abs(summary.t - 2) < 1e-9, "the whole file")
        #expect(abs(summary.channels[0].peak_db - -6) <= 0.05)
        #expect(abs(summary.channels[0].avg_db - -9.0103) <= 0.1)
        #expect(abs(summary.channels[1].peak_db - -30) <= 0.05)
        #expect(abs(summary.channels[1].avg_db - -33.0103) <= 0.1)
        #expect(summary.channels[2].peak_db == -160)
        #expect(summary.channels[2].avg_db == -160)
    }

    @Test func loudnessOfAStereoToneAtMinus23() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.run("meter", "--source", "tone:1000@-23", "--duration", "5", "--loudness", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let lines = try outcome.standardOutput.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        let summary = try #require(lines.last)
        #expect(summary["summary"] as? Bool == true)
        // EBU Tech 3341 case 1: a stereo 1 kHz sine at −23 dBFS reads −23 LUFS.
        let integrated = try #require(summary["integrated_lufs"] as? Double)
        #expect(abs(integrated - -23) <= 0.1, "\(integrated)")
        let truePeak = try #require(summary["true_peak_dbtp"] as? Double)
        #expect(abs(truePeak - -23) <= 0.2, "\(truePeak)")
        #expect(lines.dropLast().contains { ($0["momentary_lufs"] as? Double).map { abs($0 - -23) <= 0.1 } ?? false })
    }

    @Test func unreadableFileSourceNamesTheFile() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.file("not-audio.wav")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        let outcome = try sandbox.run("meter", "--source", "file:\(path)", "--duration", "1")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("not-audio.wav"))
    }
}
