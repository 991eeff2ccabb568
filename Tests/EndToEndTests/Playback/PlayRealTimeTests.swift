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
}
