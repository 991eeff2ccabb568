import Foundation
import SoundFiles

/// Two meetings of the same sound recorded at once for `seconds` on a private PulseAudio, one
/// with `--echo-cancel` and one without: the CPU (user + system) of each and what echo
/// cancelling costs per second of audio, and how much lower the echo is in the microphone's
/// channel with it. The room is one 4-channel null sink: the microphone a remap of its front
/// pair, the desktop one of its rear pair; `paplay` loops espeak-ng's speech into the rear and
/// the same speech 10 dB down and 10 ms late (the loudspeakers heard by the microphone) into the
/// front, so the echo's delay and level are the file's, to the frame.
struct EchoBenchmark {
    let seconds: Int

    /// `voicememo-bench echo [SECONDS]` (60 when not given).
    static func command(_ arguments: [String]) -> Int32 {
        guard let seconds = secondsArgument(arguments, of: "echo", minimum: 10) else { return 2 }
        return EchoBenchmark(seconds: seconds).run() ? 0 : 1
    }

    private static let rate = 48_000
    /// Where the echo is measured from: the canceller has converged by then.
    private static let settledSeconds = 3

    /// espeak-ng's speech as the far end and `room.wav` (front: its echo, rear: itself) from it.
    private static let roomScript = """
        espeak-ng -w far1.wav "Here is the agenda for today. First the budget for the spring, then the plans for \\
        the next quarter, and last the questions the team sent in before the meeting." || exit 1
        sox far1.wav -r 48000 far.wav norm -6 || exit 1
        sox far.wav echo.wav vol 0.3 delay 0.01 || exit 1
        sox -M echo.wav echo.wav far.wav far.wav room.wav || exit 1
        """

    func run() -> Bool {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-echo-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let modules = [
            ["module-null-sink", "sink_name=room", "rate=48000", "channels=4", "channel_map=front-left,front-right,rear-left,rear-right"],
            ["module-remap-source", "master=room.monitor", "source_name=mic", "master_channel_map=front-left,front-right",
             "channel_map=front-left,front-right", "remix=no"],
            ["module-remap-source", "master=room.monitor", "source_name=desk_out", "master_channel_map=rear-left,rear-right",
             "channel_map=front-left,front-right", "remix=no"],
        ]
        guard let (server, environment) = SoundServer.forBenchmark("echo", in: work, rate: Self.rate, modules: modules) else {
            return false
        }
        defer { server.stop() }
        guard ChildProcess.run("/bin/bash", ["-c", "cd '\(work)' && " + Self.roomScript], environment: environment)?.status == 0 else {
            printToStandardError("voicememo-bench echo: espeak-ng or sox could not make the room's sound")
            return false
        }
        guard let player = SpawnedProcess.loopingPlayer(
            "echo", file: work + "/room.wav", sink: "room", environment: environment, log: work + "/paplay.log")
        else { return false }
        defer { player.stop() }

        let voicememo = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        let record = ["record", "--source", "pulse:mic+pulse:desk_out", "--duration", "\(seconds)s", "--format", "wav",
                      "--encoding", "pcm16", "--rate", "\(Self.rate)", "--channels", "2"]
        let commands: [(name: String, arguments: [String], output: String)] = [
            ("record a meeting", record + ["--output", work + "/plain.wav"], work + "/plain.wav"),
            ("record --echo-cancel", record + ["--echo-cancel", "--output", work + "/cancelled.wav"], work + "/cancelled.wav"),
        ]
        print("echo: two meetings of \(seconds) s at once at 48 kHz in 2 channels, the same speech and its echo (-10.5 dB, 10 ms late) in each")
        let finished = ChildProcess.runSideBySide(commands.map { (voicememo, $0.arguments) }, environment: environment)
        guard let plain = finished[0], let cancelled = finished[1], plain.status == 0, cancelled.status == 0 else {
            printToStandardError("voicememo-bench echo: voicememo record failed")
            return false
        }
        print("  " + "command".padding(to: 28) + "CPU s".leftPadding(to: 9) + "wall s".leftPadding(to: 9))
        for (command, result) in zip(commands, [plain, cancelled]) {
            print("  " + command.name.padding(to: 28) + fixed(result.cpuSeconds, decimals: 3).leftPadding(to: 9)
                + fixed(result.wallSeconds, decimals: 1).leftPadding(to: 9))
        }
        let cost = (cancelled.cpuSeconds - plain.cpuSeconds) / Double(seconds)
        print("  echo cancelling: \(fixed(cost * 1000, decimals: 1)) ms of CPU per second of audio (\(fixed(cost * 100, decimals: 2)) % of a core)")
        guard let before = Self.microphoneLevel(commands[0].output), let after = Self.microphoneLevel(commands[1].output) else {
            printToStandardError("voicememo-bench echo: the recordings cannot be read")
            return false
        }
        print("  the microphone's channel from \(Self.settledSeconds) s on: \(fixed(before, decimals: 1)) dBFS RMS without, "
            + "\(fixed(after, decimals: 1)) with; the echo \(fixed(before - after, decimals: 1)) dB lower")
        print("goal: the echo at least 15 dB lower: \(before - after >= 15 ? "PASS" : "MISS")")
        return true
    }

    /// The RMS level of the first channel of the 16-bit stereo file at `path` from
    /// `settledSeconds` on, in dBFS.
    private static func microphoneLevel(_ path: String) -> Double? {
        guard let reader = try? SoundFileReader(path: path), reader.info.channels == 2 else { return nil }
        defer { reader.close() }
        var chunk = [Int16](repeating: 0, count: 4096 * 2)
        var position = 0
        var sum = 0.0
        var counted = 0
        while true {
            let got = chunk.withUnsafeMutableBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return (try? reader.read(into: base, frames: 4096, as: .int16)) ?? 0
            }
            if got == 0 { break }
            for frame in 0..<got where position + frame >= settledSeconds * rate {
                let sample = Double(chunk[frame * 2]) / 32768
                sum += sample * sample
                counted += 1
            }
            position += got
        }
        return counted > 0 ? 10 * log10(max(sum / Double(counted), 1e-20)) : nil
    }
}
