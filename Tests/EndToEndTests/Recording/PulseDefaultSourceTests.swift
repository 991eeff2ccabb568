import Foundation
import TestSupport
import Testing

/// `record --source pulse:default` follows the sound server's default source: on a PulseAudio
/// daemon of the test's own (its default is changed), with two "microphones" each fed a tone
/// in one channel only, so that every 10 ms of the recording says which microphone it came from.
@Suite struct PulseDefaultSourceTests {
    /// Which microphone each 10 ms block came from, one character a block: "1" the first
    /// (its tone is in the left channel), "2" the second (the right), "." neither (silence, both).
    static func blocks(_ samples: [Int16], channels: Int, sampleRate: Int) -> [Character] {
        let frames = samples.count / channels
        let blockFrames = sampleRate / 100
        return stride(from: 0, to: frames - blockFrames + 1, by: blockFrames).map { start in
            var energy = [0.0, 0.0]
            for frame in start..<start + blockFrames {
                for channel in 0..<2 {
                    let value = Double(samples[frame * channels + channel]) / 32768
                    energy[channel] += value * value
                }
            }
            let level = energy.map { 10 * log10(max($0 / Double(blockFrames), 1e-12)) }
            if level[0] > -30 && level[1] < -50 { return "1" }
            if level[1] > -30 && level[0] < -50 { return "2" }
            return "."
        }
    }

    @Test func recordingTheDefaultFollowsItFromOneMicrophoneToAnotherWithoutAGap() throws {
        let daemon = try PulsePrivateDaemon()
        let first = try PulseTestMicrophone(server: daemon.address, description: "First Mic")
        let second = try PulseTestMicrophone(server: daemon.address, description: "Second Mic")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = daemon.address
        try TestSignals.writeSines(to: sandbox.file("first.wav"), levels: [-12, nil], seconds: 30)
        try TestSignals.writeSines(to: sandbox.file("second.wav"), levels: [nil, -12], seconds: 30)
        let log = sandbox.file("events.txt")
        let outcome = try sandbox.shell("""
            pactl set-default-source \(first.source) || exit 4
            paplay -d \(first.feed) --latency-msec=200 first.wav & one=$!
            paplay -d \(second.feed) --latency-msec=200 second.wav & two=$!
            running() { pactl list sinks short | grep -q "$1.*RUNNING"; }
            wait_until 10 "the tones playing" eval 'running \(first.feed) && running \(second.feed)' || exit 5
            recorded() { tail -n 1 events.txt 2>/dev/null | grep -oE 'recorded [0-9]+' | grep -oE '[0-9]+' || echo 0; }
            VOICEMEMO_EVENT_LOG='\(log)' voicememo record --source pulse:default --duration 3s --format wav \\
                --encoding pcm16 --rate 48000 --channels 2 --output out.wav --json > report.json 2> rec.err & rec=$!
            wait_until 15 "1.5 s recorded" eval '[ "$(recorded)" -ge 72000 ]' || exit 6
            pactl set-default-source \(second.source) || exit 7
            wait $rec; echo "status=$?"
            kill $one $two 2>/dev/null; wait $one $two 2>/dev/null
            cat rec.err >&2
            exit 0
            """, timeout: .seconds(60))
        #expect(outcome.status == 0 && outcome.standardOutput.contains("status=0"), "\(outcome)")

        let recorded = try TestSignals.readInt16(sandbox.file("out.wav"))
        #expect(recorded.info.frames == 144_000, "\(recorded.info)")
        let heard = Self.blocks(recorded.samples, channels: 2, sampleRate: 48_000)
        let blocks = String(heard)
        let lastFirst = try #require(heard.lastIndex(of: "1"), "the first microphone is heard: \(blocks)")
        let firstSecond = try #require(heard.firstIndex(of: "2"), "the second microphone is heard: \(blocks)")
        #expect(lastFirst < firstSecond, "the first, then the second: \(blocks)")
        #expect(lastFirst >= 140, "the first until the switch at 1.5 s: \(blocks)")
        #expect(firstSecond - lastFirst - 1 <= 10, "a gap of \((firstSecond - lastFirst - 1) * 10) ms at the switch: \(blocks)")
        // Never back to the first (a player's underrun in a feed would be a "." of its own).
        #expect(!heard[firstSecond...].contains("1"), "only the second after the switch: \(blocks)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sandbox.file("report.json")))) as? [String: Any])
        #expect((report["lost_frames"] as? Int).map { $0 <= 4800 } == true, "no more than 100 ms lost: \(report)")
    }

    /// The default source removed while `pulse:default` records it: the server moves the
    /// stream to the next default and the recording runs its whole duration, no error.
    @Test func recordingTheDefaultOutlivesTheDefaultSourcesRemoval() throws {
        let daemon = try PulsePrivateDaemon()
        let microphone = try PulseTestMicrophone(server: daemon.address, description: "First Mic")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = daemon.address
        let outcome = try sandbox.shell("""
            pactl set-default-source \(microphone.source) || exit 4
            recorded() { tail -n 1 events.txt 2>/dev/null | grep -oE 'recorded [0-9]+' | grep -oE '[0-9]+' || echo 0; }
            VOICEMEMO_EVENT_LOG=events.txt voicememo record --source pulse:default --duration 2s --format wav \\
                --rate 48000 --channels 2 --output out.wav 2> rec.err & rec=$!
            wait_until 15 "0.5 s recorded" eval '[ "$(recorded)" -ge 24000 ]' || exit 6
            module=$(pactl list modules short | grep "source_name=\(microphone.source)" | cut -f1)
            pactl unload-module "$module" || exit 7
            wait $rec; echo "status=$?"
            cat rec.err >&2
            exit 0
            """, timeout: .seconds(60))
        #expect(outcome.status == 0 && outcome.standardOutput.contains("status=0"), "\(outcome)")
        #expect(!outcome.standardError.contains("removed"), "\(outcome)")
        let recorded = try TestSignals.readInt16(sandbox.file("out.wav"))
        #expect(recorded.info.frames == 96_000, "\(recorded.info)")
    }
}
