import Foundation
import SoundFiles

extension VoiceMemoSandbox {
    /// Runs a bash script in the sandbox's environment, with the built `voicememo` on `PATH`
    /// and the working directory in the sandbox: for what needs job control (signals,
    /// `ulimit`, a background recording killed mid-way). The script can wait with
    /// ``waitUntilFunction``'s `wait_until`.
    func shell(_ script: String, timeout: Duration = .seconds(60)) throws -> ProcessOutcome {
        var environment = self.environment
        let binary = try VoiceMemoBinary.url()
        environment["PATH"] = binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["WORK"] = directory.url.path
        return try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"),
            arguments: ["-c", "cd \"$WORK\" || exit 99\n" + Self.waitUntilFunction + script],
            environment: environment, timeout: timeout)
    }

    /// The scripts' one way to wait: `wait_until SECONDS WHAT COMMAND…` runs COMMAND (a test,
    /// or a function of the script's, which may itself end the script) every 10 ms (`poll=0.1
    /// wait_until …` for a costly one) until it succeeds; after SECONDS it says on standard
    /// error what it waited for and returns 1, so no script waits for ever and a failed wait
    /// is named in the test's outcome rather than ending as the shell's timeout. Whole
    /// seconds; the shell's own clock (`EPOCHREALTIME`, no fork per poll).
    static let waitUntilFunction = """
        wait_until() {
            local _wait_seconds=$1 _wait_what=$2 _wait_limit=$(( ${EPOCHREALTIME//[!0-9]/} + $1 * 1000000 ))
            shift 2
            until "$@"; do
                if (( ${EPOCHREALTIME//[!0-9]/} >= _wait_limit )); then
                    echo "wait_until: gave up after $_wait_seconds s waiting for $_wait_what" >&2
                    return 1
                fi
                sleep "${poll:-0.01}"
            done
        }

        """

    /// Starts `command` (a `voicememo record …` line) in the background, waits until the
    /// shell condition `started` holds (the recording's file exists), lets it record for
    /// `seconds`, then kills it with SIGKILL.
    ///
    /// - Returns: how long it recorded, from `started` to the kill, as the shell measured it.
    func recordThenKillNine(_ command: String, startedWhen started: String, seconds: Double = 2) throws -> Double {
        let outcome = try shell("""
            \(command) &
            pid=$!
            started() { \(started); }
            wait_until 30 "the recording to start" started || exit 124
            start=$(date +%s.%N)
            sleep \(seconds)
            kill -9 $pid
            end=$(date +%s.%N)
            wait $pid 2>/dev/null
            echo "$start $end"
            """)
        let times = outcome.standardOutput.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard times.count == 2 else {
            throw KillFailure(description: "the recording was not started and killed: \(outcome)")
        }
        return times[1] - times[0]
    }

    struct KillFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// A path inside the sandbox.
    func file(_ name: String) -> String {
        directory.path(name).path
    }

    /// Writes the ALSA test devices (Resources/alsa/test-devices.conf.in) fed by `captureFile`,
    /// and points `ALSA_CONFIG_PATH` at them on top of the global configuration.
    func installALSATestDevices(captureFile: String, playbackFile: String? = nil) throws {
        let template = try String(contentsOf: TestResources.url("alsa/test-devices.conf.in"), encoding: .utf8)
        let config = template
            .replacingOccurrences(of: "@CAPTURE_FILE@", with: captureFile)
            .replacingOccurrences(of: "@PLAYBACK_FILE@", with: playbackFile ?? file("played.raw"))
        let path = file("alsa-devices.conf")
        try Data(config.utf8).write(to: URL(fileURLWithPath: path))
        environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:" + path
    }
}

/// The repository's Resources folder, found from this source file's location.
enum TestResources {
    static func url(_ relativePath: String) -> URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Resources").appendingPathComponent(relativePath)
    }
}
