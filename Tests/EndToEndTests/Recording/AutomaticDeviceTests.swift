import Foundation
import TestSupport
import Testing

/// With no `--source`, no `--device` and no config naming either, VoiceMemo takes the sound
/// server's default source and sink when a server answers, and ALSA's `default` when none does.
@Suite struct AutomaticDeviceTests {
    /// The RMS level of each channel of `samples`, in dBFS (−200 for silence).
    static func levels(_ samples: [Int16], channels: Int) -> [Double] {
        (0..<channels).map { channel in
            var sum = 0.0
            var count = 0
            for index in stride(from: channel, to: samples.count, by: channels) {
                let value = Double(samples[index]) / 32768
                sum += value * value
                count += 1
            }
            return count == 0 || sum == 0 ? -200 : 10 * log10(sum / Double(count))
        }
    }

    /// A server of the test's own whose default source is a "microphone" fed a tone in its
    /// left channel and whose default sink is another's feed: `record` hears the tone there,
    /// `play` is heard on the sink's monitor, and `gain` reads the source's volume in dB.
    @Test func withAServerAnsweringNothingNamedUsesItsDefaultSourceAndSink() throws {
        let daemon = try PulsePrivateDaemon()
        let microphone = try PulseTestMicrophone(server: daemon.address, description: "Desk Mic")
        let speakers = try PulseTestMicrophone(server: daemon.address, description: "Speakers")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = daemon.address
        try TestSignals.writeSines(to: sandbox.file("tone.wav"), levels: [-12, nil], seconds: 30)
        let outcome = try sandbox.shell("""
            pactl set-default-source \(microphone.source) || exit 4
            pactl set-default-sink \(speakers.feed) || exit 4
            paplay -d \(microphone.feed) --latency-msec=200 tone.wav & feed=$!
            wait_until 10 "the tone playing" eval 'pactl list sinks short | grep -q "\(microphone.feed).*RUNNING"' || exit 5
            voicememo record --duration 2s --format wav --encoding pcm16 --rate 48000 --channels 2 \\
                --output out.wav 2> rec.err; echo "record=$?"
            kill $feed 2>/dev/null; wait $feed 2>/dev/null
            parec --device=\(speakers.feed).monitor --format=s16le --rate=48000 --channels=2 heard.raw & listener=$!
            wait_until 10 "the listener recording" eval 'pactl list source-outputs short | grep -q .' || exit 6
            voicememo play out.wav 2> play.err; echo "play=$?"
            kill $listener 2>/dev/null; wait $listener 2>/dev/null
            voicememo gain; echo "gain=$?"
            cat rec.err play.err >&2
            exit 0
            """, timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        for step in ["record=0", "play=0", "gain=0"] {
            #expect(outcome.standardOutput.contains(step), "\(step): \(outcome)")
        }
        #expect(outcome.standardOutput.contains("pulse:default:") && outcome.standardOutput.contains(" dB"),
                "gain reads the server's default source in dB: \(outcome)")

        let recorded = try TestSignals.readInt16(sandbox.file("out.wav"))
        #expect(recorded.info.frames == 96_000, "\(recorded.info)")
        let recordedLevels = Self.levels(recorded.samples, channels: 2)
        // A sine peaking at −12 dBFS has an RMS of −15 dBFS; the first moments may be the
        // server's silence before the stream runs.
        #expect(recordedLevels[0] > -17 && recordedLevels[0] < -14, "the default source's tone, left: \(recordedLevels)")
        #expect(recordedLevels[1] < -60, "silence right: \(recordedLevels)")

        let heardData = try Data(contentsOf: URL(fileURLWithPath: sandbox.file("heard.raw")))
        let heard = heardData.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(heard.count >= 48_000 * 2, "the default sink's monitor heard a second or more: \(heard.count) samples")
        let heardLevels = Self.levels(heard, channels: 2)
        #expect(heardLevels[0] > -22, "the recording played on the default sink, left: \(heardLevels)")
        #expect(heardLevels[1] < -60, "and silence right: \(heardLevels)")
    }

    /// With no server answering (the sandbox has no `PULSE_SERVER` and a runtime folder of its
    /// own), `record` opens ALSA's `default`: here an ALSA file device fed a known noise, so
    /// the memo is that noise; `gain` names ALSA's `default`.
    @Test func withNoServerNothingNamedOpensALSAsDefault() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = nil
        let input = sandbox.file("in.raw")
        try TestSignals.writeRawNoise(to: input, frames: 48_000 * 4)
        try sandbox.installALSATestDevices(captureFile: input)
        let path = try #require(sandbox.environment["ALSA_CONFIG_PATH"]?.split(separator: ":").last.map(String.init))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("\npcm.!default voicememo_capture\n".utf8))
        try handle.close()

        let outcome = try sandbox.run(
            "record", "--duration", "1s", "--format", "wav", "--encoding", "pcm16", "--rate", "48000",
            "--channels", "2", "--output", sandbox.file("out.wav"))
        #expect(outcome.status == 0, "\(outcome)")
        let recorded = try TestSignals.readInt16(sandbox.file("out.wav"))
        let fed = try Data(contentsOf: URL(fileURLWithPath: input)).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(recorded.samples.count == 96_000, "\(recorded.info)")
        #expect(recorded.samples == Array(fed.prefix(recorded.samples.count)), "the memo is ALSA's default, sample for sample")

        let gain = try sandbox.run("gain")
        #expect(gain.status != 0 && gain.standardError.contains("alsa:default"), "gain names ALSA's default: \(gain)")
    }
}
