import TestSupport
import Foundation
import Testing

/// The loudness statistics `list --json` shows for each memo: measured when a recording finishes
/// and when a file dropped into the folder is adopted.
@Suite struct LibraryLoudnessTests {
    /// EBU Tech 3341 case 1 recorded: a stereo 1 kHz sine at −23 dBFS reads −23.0 LUFS.
    @Test func recordedToneListsItsLoudness() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.run("record", "--source", "tone:1000@-23", "--duration", "3", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let recorded = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let listed = try #require(try sandbox.listedMemos().first)
        #expect(listed["channels"] as? Int == 2)
        let loudness = try #require(listed["loudness_lufs"] as? Double, "\(listed)")
        #expect(abs(loudness - -23) <= 0.2, "\(loudness)")
        let truePeak = try #require(listed["true_peak_dbtp"] as? Double)
        #expect(abs(truePeak - -23) <= 0.2, "\(truePeak)")
        #expect(listed["lra"] as? Double ?? 99 < 1, "\(String(describing: listed["lra"]))")
        #expect(listed["clips"] as? Int == 0)
        #expect(recorded["loudness_lufs"] as? Double == loudness, "record --json has the figures too")
    }

    /// What `record` measured while writing, as `list --json` shows it right after, equals what
    /// `analyze` finds in the memo's file, and `meter` counts the same clips on the same input
    /// (`ClipRule`): a 0 dBFS tone (one full-scale sample at each crest: no clip) and a file with
    /// runs of three full-scale frames (clips) and pairs (none), in 16- and 24-bit PCM.
    @Test(arguments: [("tone", "pcm16"), ("file", "pcm16"), ("file", "pcm24")])
    func recordedStatisticsEqualAnalyzeOfTheFile(source: String, encoding: String) throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        var input = "tone:1000@0"
        if source == "file" {
            input = "file:" + sandbox.file("clips.wav")
            let bursts = stride(from: 1_000, to: 4 * 48_000, by: 9_600).flatMap { [$0, $0 + 1, $0 + 2] }
            let pairs = stride(from: 5_000, to: 4 * 48_000, by: 9_600).flatMap { [$0, $0 + 1] }
            try TestSignals.writeSines(
                to: sandbox.file("clips.wav"), levels: [-12, -18], seconds: 4, fullScaleFrames: bursts + pairs)
        }
        let recorded = try sandbox.run(
            "record", "--source", input, "--duration", "4", "--format", "wav", "--encoding", encoding)
        #expect(recorded.status == 0, "\(recorded)")
        let id = recorded.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let listed = try #require(try sandbox.listedMemos().first)
        let analyzed = try sandbox.run("analyze", id, "--json")
        #expect(analyzed.status == 0, "\(analyzed)")
        let file = try #require(try JSONSerialization.jsonObject(with: Data(analyzed.standardOutput.utf8)) as? [String: Any])

        for key in ["peak_db", "true_peak_dbtp", "loudness_lufs", "lra"] {
            let stored = try #require(listed[key] as? Double, "\(key) in \(listed)")
            let measured = try #require(file[key] as? Double, "\(key) in \(file)")
            #expect(abs(stored - measured) <= 0.05, "\(key): listed \(stored), analyze \(measured)")
        }
        let clips = try #require(listed["clips"] as? Int)
        #expect(clips == file["clips"] as? Int)
        #expect(clips == (source == "file" ? 20 * 2 : 0), "20 runs of 3 frames on 2 channels; pairs and crests are none")

        let metered = try sandbox.run("meter", "--source", input, "--duration", "4", "--json")
        #expect(metered.status == 0, "\(metered)")
        let summaryLine = try #require(metered.standardOutput.split(separator: "\n").last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(summaryLine.utf8)) as? [String: Any])
        #expect(summary["summary"] as? Bool == true, "\(summary)")
        #expect(summary["clips"] as? Int == clips, "meter counts what record and analyze count")
    }

    @Test func droppedFileListsItsLoudness() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.libraryDirectory.path + "/dropped.wav"
        try TestSignals.writeSines(to: path, levels: [-23, -23], seconds: 4)
        let listed = try #require(try sandbox.listedMemos().first)
        #expect(listed["title"] as? String == "dropped")
        let loudness = try #require(listed["loudness_lufs"] as? Double, "\(listed)")
        #expect(abs(loudness - -23) <= 0.1, "\(loudness)")
        #expect(abs((listed["true_peak_dbtp"] as? Double ?? 0) - -23) <= 0.2)
        #expect(listed["clips"] as? Int == 0)
    }

    @Test func silentMemoListsNullLoudness() throws {
        let sandbox = try VoiceMemoSandbox()
        try TestSignals.writeSines(to: sandbox.libraryDirectory.path + "/quiet.wav", levels: [nil], seconds: 1)
        let listed = try #require(try sandbox.listedMemos().first)
        #expect(listed["loudness_lufs"] is NSNull)
        #expect(listed["lra"] is NSNull)
        #expect(listed["clips"] as? Int == 0)
    }
}
