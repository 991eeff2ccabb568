import TestSupport
import Foundation
import Testing

/// `voicememo meter` reports the input's diagnosis: a `"diagnosis"` field in every `--json`
/// update, and a line of its own in text output each time it changes.
@Suite struct MeterDiagnosisTests {
    @Test func jsonUpdatesNameADeadRightChannelAfterTwoSeconds() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let path = sandbox.file("dead-right.wav")
        try TestSignals.writeSines(to: path, levels: [-12, nil], seconds: 4)
        let outcome = try sandbox.run("meter", "--source", "file:\(path)", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let lines = try outcome.standardOutput.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        let updates = lines.filter { $0["summary"] == nil }
        #expect(!updates.isEmpty && updates.allSatisfy { $0.keys.contains("diagnosis") }, "every update has the field: \(outcome)")
        let diagnosed = updates.filter { $0["diagnosis"] is [String: Any] }
        let first = try #require(diagnosed.first, "\(outcome)")
        #expect((first["t"] as? Double ?? 0) >= 2, "not before 2 s: \(first)")
        let diagnosis = try #require(first["diagnosis"] as? [String: Any])
        #expect(diagnosis["kind"] as? String == "channel_silent")
        #expect(diagnosis["channels"] as? [Int] == [2])
        #expect((diagnosis["message"] as? String)?.hasPrefix("Right channel is silent: ") == true, "\(diagnosis)")
        #expect(updates.filter { ($0["t"] as? Double ?? 0) < 2 }.allSatisfy { $0["diagnosis"] is NSNull }, "\(outcome)")
    }

    @Test func textOutputSaysWhenTheInputFallsSilentAndWhenItIsFineAgain() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let both = sandbox.file("silence-then-tone.wav")
        try TestSignals.writeSines(to: both, sections: [(3, [nil]), (1, [-12])])
        let outcome = try sandbox.run("meter", "--source", "file:\(both)")
        #expect(outcome.status == 0, "\(outcome)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        let silent = lines.firstIndex { $0.hasSuffix("s  Input is silent: is the capture switch off or muted? (alsamixer, F4)") }
        let fine = lines.firstIndex { $0.hasSuffix("s  The input looks fine again.") }
        let order = silent.flatMap { silent in fine.map { silent < $0 } }
        #expect(order == true, "silent, then fine again: \(outcome)")
    }
}
