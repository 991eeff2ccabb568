import Foundation
import SoundFiles
import Testing

/// `voicememo play` against a real-time device: a private PulseAudio daemon with a
/// null sink, started by the test script, reached through an ALSA `pulse` device
/// defined in `ALSA_CONFIG_PATH` (LINUX-AUDIO-NOTES.md).
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio"), "pulseaudio is not installed (Debian: pulseaudio, libasound2-plugins)"))
struct PlayRealTimeTests {
    /// Bash that starts the daemon, waits for its socket, defines ALSA device `vm_pulse`,
    /// and stops the daemon when the script exits.
    private static let startPulse = """
        mkdir -p pulse/home pulse/run
        printf '%s\\n' 'load-module module-null-sink sink_name=vsink rate=48000 channels=2' \
            "load-module module-native-protocol-unix socket=$WORK/pulse/native auth-anonymous=1" \
            'set-default-sink vsink' > pulse/default.pa
        HOME=$WORK/pulse/home XDG_RUNTIME_DIR=$WORK/pulse/run PULSE_RUNTIME_PATH=$WORK/pulse/run \
            pulseaudio -n -F pulse/default.pa --daemonize=no --exit-idle-time=-1 >/dev/null 2>&1 &
        pa=$!
        trap 'kill $pa; wait $pa 2>/dev/null' EXIT
        for i in $(seq 50); do [ -S pulse/native ] && break; sleep 0.1; done
        [ -S pulse/native ] || { echo "pulseaudio did not start" >&2; exit 97; }
        printf 'pcm.vm_pulse { type pulse server "unix:%s/pulse/native" }\\n' "$WORK" > pulse/alsa.conf
        export ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:$WORK/pulse/alsa.conf

        """

    private func sandbox(seconds: Double) throws -> VoiceMemoSandbox {
        let sandbox = try VoiceMemoSandbox()
        try TestSignals.writeSines(to: sandbox.file("tone.wav"), levels: [-6, -12], seconds: seconds)
        return sandbox
    }

    @Test func sigintStopsPlaybackCleanlyWithExitZero() throws {
        let sandbox = try sandbox(seconds: 10)
        let outcome = try sandbox.shell(Self.startPulse + """
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
        let sandbox = try sandbox(seconds: 2)
        let outcome = try sandbox.shell(Self.startPulse + """
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
