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
