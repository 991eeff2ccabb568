import Foundation
import TestSupport
import SoundFiles
import Testing

/// `voicememo play` against a real-time device: a null sink of the test's own on the
/// suite's PulseAudio daemon, reached through the ALSA device `vm_pulse`
/// (`VoiceMemoSandbox.usePulse()`).
@Suite(.serialized)
struct PlayRealTimeTests {
    private func sandbox(seconds: Double) throws -> (VoiceMemoSandbox, PulseTestSink) {
        let sandbox = try VoiceMemoSandbox()
        let sink = try sandbox.usePulse()
        try TestSignals.writeSines(to: sandbox.file("tone.wav"), levels: [-6, -12], seconds: seconds)
        return (sandbox, sink)
    }

    @Test func sigintStopsPlaybackCleanlyWithExitZero() throws {
        let (sandbox, sink) = try sandbox(seconds: 10)
        defer { withExtendedLifetime(sink) {} }
        let outcome = try sandbox.shell("""
            voicememo play tone.wav --device vm_pulse &
            pid=$!
            sleep 3
            kill -INT $pid
            start=$(date +%s%N)
            wait $pid; echo "status=$?"
            echo "exit_ms=$(( ($(date +%s%N) - start) / 1000000 ))"
            """)
        #expect(outcome.standardOutput.contains("status=0"), "\(outcome)")
        #expect(outcome.standardError.contains("playback stopped by SIGINT at 00:00:0"), "\(outcome)")
        #expect(outcome.standardError.contains("of 00:00:10"), "\(outcome)")
        let exitMilliseconds = outcome.standardOutput.split(separator: "\n")
            .first { $0.hasPrefix("exit_ms=") }.flatMap { Int($0.dropFirst("exit_ms=".count)) } ?? -1
        #expect(exitMilliseconds >= 0 && exitMilliseconds < 1000, "stops promptly: \(exitMilliseconds) ms")
    }

    @Test func liveLineOnATerminalAndExitZeroAtTheEnd() throws {
        let (sandbox, sink) = try sandbox(seconds: 2)
        defer { withExtendedLifetime(sink) {} }
        let outcome = try sandbox.shell("""
            start=$(date +%s%N)
            script -qfec "voicememo play tone.wav --device vm_pulse" /dev/null
            echo "status=$?"
            echo "took_ms=$(( ($(date +%s%N) - start) / 1000000 ))"
            """)
        #expect(outcome.standardOutput.contains("status=0"), "\(outcome)")
        #expect(outcome.standardOutput.contains("▶ 00:00:01 / 00:00:02"), "the live line shows progress: \(outcome)")
        #expect(outcome.standardOutput.contains("█"), "and levels: \(outcome)")
        #expect(outcome.standardOutput.contains("peak -6.0 dB"), "and the peak: \(outcome)")
        let took = outcome.standardOutput.split(separator: "\n")
            .first { $0.hasPrefix("took_ms=") }.flatMap { Int($0.dropFirst("took_ms=".count)) } ?? -1
        #expect(took >= 2000, "a 2 s file takes at least 2 s on a real-time device: \(took) ms")
    }

    /// `--device pulse:NAME` plays to a sink of the sound server by name, through libpulse:
    /// `parec` on its monitor hears the file at its level (left −6 dBFS peak: −9.0 dBFS RMS).
    @Test func playsToASinkOfTheServerByName() throws {
        let server = try PulseTestServer.require()
        let sink = try server.makeSink()
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = server.address
        try TestSignals.writeSines(to: sandbox.file("tone.wav"), levels: [-6, -12], seconds: 1.5)
        let outcome = try sandbox.shell("""
            parec --device=\(sink.monitor) --format=s16le --rate=48000 --channels=2 heard.raw &
            recorder=$!
            sleep 0.3
            voicememo play tone.wav --device pulse:\(sink.name); echo "status=$?"
            sleep 0.3
            kill -INT $recorder; wait $recorder
            """)
        #expect(outcome.standardOutput.contains("status=0"), "\(outcome)")
        let heard = try Data(contentsOf: URL(fileURLWithPath: sandbox.file("heard.raw")))
        let samples = heard.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        var loudest = -160.0
        var start = 0
        while start + 9_600 <= samples.count {
            let sum = stride(from: start, to: start + 9_600, by: 2).reduce(0.0) { sum, index in
                let sample = Double(samples[index]) / 32_768
                return sum + sample * sample
            }
            loudest = max(loudest, 10 * log10(max(sum / 4_800, 1e-16)))
            start += 9_600
        }
        #expect(abs(loudest - -9.03) < 1, "the sink's monitor heard \(loudest) dBFS at most over 100 ms")
    }

    /// A sink the server does not have: exit 1, naming the sinks it has.
    @Test func aSinkTheServerDoesNotHaveIsNamedWithTheSinksItHas() throws {
        let server = try PulseTestServer.require()
        let sink = try server.makeSink()
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = server.address
        try TestSignals.writeSines(to: sandbox.file("tone.wav"), levels: [-6], seconds: 0.5)
        let outcome = try sandbox.run("play", sandbox.file("tone.wav"), "--device", "pulse:no_such_sink")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("has no sink \"no_such_sink\"; its sinks: "), "\(outcome)")
        #expect(outcome.standardError.contains(sink.name), "\(outcome)")
    }
}
