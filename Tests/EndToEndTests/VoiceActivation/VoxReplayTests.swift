import Foundation
import TestSupport
import Testing

/// `record --vox --replay`: each take is played back into the room (a PulseAudio null sink whose
/// monitor is the input, so the input hears the replay), and the replay never starts a take.
@Suite(.serialized)
struct VoxReplayTests {
    /// A sandbox whose ALSA `default` plays into the test's sink and whose `vm_pulse` captures
    /// from its monitor, with a 1 s tone phrase (-12 dBFS) followed by 0.5 s of silence.
    private func sandbox() throws -> (VoiceMemoSandbox, PulseTestSink) {
        let sandbox = try VoiceMemoSandbox()
        let sink = try sandbox.usePulse()
        let defaultDevice = sandbox.file("default-into-sink.conf")
        try Data("pcm.!default { type pulse server \"\(sink.server)\" device \"\(sink.name)\" }\n".utf8)
            .write(to: URL(fileURLWithPath: defaultDevice))
        sandbox.environment["ALSA_CONFIG_PATH", default: ""] += ":" + defaultDevice
        sandbox.environment["VOICEMEMO_EVENT_LOG"] = sandbox.file("events.log")
        try TestSignals.writeSines(to: sandbox.file("phrase.wav"), sections: [(1, [-12, -12]), (0.5, [nil, nil])])
        return (sandbox, sink)
    }

    /// The shell's bounded wait for `COUNT` lines starting with `NAME` in the event log (30 s).
    private static let waitFor = """
        wait_for() { for _ in $(seq 1 600); do [ "$(grep -c "^$1" events.log 2>/dev/null)" -ge "$2" ] && return 0; sleep 0.05; done; echo "timed out waiting for $2 x $1"; return 1; }
        """

    private static let listen =
        "voicememo record --vox --vox-level-only --source alsa:vm_pulse --format wav --rate 48000 --channels 2 --vox-silence 0.5s --vox-min 0.2s --no-transcribe --duration 120"

    private func events(_ sandbox: VoiceMemoSandbox, _ name: String) throws -> [Double] {
        let text = (try? String(contentsOfFile: sandbox.file("events.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix(name + " ") }.compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
    }

    @Test func twoPhrasesMakeTwoTakesEachReplayedPitchedAndNoReplayStartsATake() throws {
        let (sandbox, sink) = try sandbox()
        defer { withExtendedLifetime(sink) {} }
        let outcome = try sandbox.shell("""
            \(Self.waitFor)
            \(Self.listen) --replay --pitch 7 > ids.txt 2> err.txt &
            pid=$!
            wait_for vox_listening 1
            paplay --device="$PULSE_SINK" phrase.wav
            wait_for replay_end 1
            paplay --device="$PULSE_SINK" phrase.wav
            wait_for replay_end 2
            kill -INT $pid
            wait $pid; echo "status=$?"
            cat err.txt
            """, timeout: .seconds(120))
        #expect(outcome.standardOutput.contains("status=0"), "\(outcome)")
        #expect(!outcome.standardOutput.contains("timed out"), "\(outcome)")
        let ids = try String(contentsOfFile: sandbox.file("ids.txt"), encoding: .utf8).split(separator: "\n")
        #expect(ids.count == 2, "one memo per phrase, none from a replay: \(ids) \(outcome)")
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 2, "\(memos)")
        let starts = try events(sandbox, "replay_start")
        let ends = try events(sandbox, "replay_end")
        #expect(starts.count == 2 && ends.count == 2, "\(starts) \(ends)")
        // Each replay played its take in real time on the device: it lasted at least the take's
        // length (plus the 0.5 s during which the input stays ignored after it).
        let durations = memos.compactMap { $0["duration"] as? Double }.sorted()
        for (start, end) in zip(starts, ends) {
            #expect(end - start >= (durations.first ?? 99) + 0.5 - 0.05, "replay \(start)…\(end), takes \(durations)")
        }
        if starts.count == 2, ends.count == 2 { #expect(starts[1] > ends[0]) }
    }

    /// The control: without `--replay`, the same take played into the sink while listening does
    /// start a take, so the input really hears what plays on `default` (the replay's device).
    @Test func withoutTheReplayATakePlayedIntoTheRoomStartsATake() throws {
        let (sandbox, sink) = try sandbox()
        defer { withExtendedLifetime(sink) {} }
        let outcome = try sandbox.shell("""
            \(Self.waitFor)
            \(Self.listen) > ids.txt 2> err.txt &
            pid=$!
            wait_for vox_listening 1
            voicememo play phrase.wav --device default --pitch 7
            saved() { [ "$(wc -l < ids.txt)" -ge 1 ]; }
            poll=0.05 wait_until 30 "the replayed take's memo id" saved
            kill -INT $pid
            wait $pid; echo "status=$?"
            cat err.txt
            """, timeout: .seconds(120))
        #expect(outcome.standardOutput.contains("status=0"), "\(outcome)")
        let ids = try String(contentsOfFile: sandbox.file("ids.txt"), encoding: .utf8).split(separator: "\n")
        #expect(ids.count == 1, "\(outcome)")
    }

    @Test(arguments: [
        (["--replay"], "--replay", "--vox"),
        (["--vox", "--pitch", "7"], "--pitch", "--replay"),
        (["--vox", "--replay", "--pitch", "40"], "--pitch", "-12"),
        (["--vox", "--replay", "--pitch", "up"], "--pitch", "semitones"),
    ])
    func badReplayFlagsAreUsageErrors(flags: [String], named: String, hint: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run(arguments: ["record", "--source", "tone:440@-12", "--duration", "1"] + flags)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains(named) && outcome.standardError.contains(hint), "\(outcome)")
        #expect(try sandbox.listedMemos().isEmpty)
    }
}
