import Foundation

/// CPU time of `voicememo play` at 1×, 1.5×, 2× and 0.5× (the pitch kept, through SoundTouch)
/// against sox's `play` with its `tempo` effect on the same file, side by side in one run.
///
/// Both play 60 s of 48 kHz stereo 16-bit WAV (pink noise) into the same unpaced ALSA file
/// playback device (Resources/alsa/test-devices.conf.in, its file /dev/null), so each run is
/// pure CPU work: decoding, the time stretch, ALSA's plug conversion. `voicememo play` at 1× is
/// the bit-exact path (no SoundTouch); with standard input not a terminal no keys are read.
/// CPU time is user + system of the child (`wait4`); rounds are interleaved; the table also
/// gives it as % of one core while playing in real time (CPU ÷ the output's length).
struct PlaybackBenchmark {
    let seconds = 60
    let rounds = 5

    func run() {
        guard let sox = RecordBenchmark.which("play") else {
            printToStandardError("voicememo-bench playback: sox's play is not installed (apt-get install sox)")
            exit(1)
        }
        let voicememo = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-play-\(getpid())")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let input = work.appendingPathComponent("input.wav").path
        let config = work.appendingPathComponent("devices.conf").path
        guard let made = ChildProcess.run(
            "/usr/bin/sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", input, "synth", String(seconds), "pinknoise", "vol", "0.3"],
            environment: [:]), made.status == 0
        else {
            printToStandardError("voicememo-bench playback: sox could not write the input")
            exit(1)
        }
        do {
            try RecordBenchmark.writeConfig(to: config, captureFile: "/dev/zero", work: work.path, playbackFile: "/dev/null")
        } catch {
            printToStandardError("voicememo-bench playback: cannot write the device: \(error)")
            exit(1)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = "/usr/share/alsa/alsa.conf:" + config
        environment["VOICEMEMO_HOME"] = work.appendingPathComponent("library").path
        environment["AUDIODRIVER"] = "alsa"
        environment["AUDIODEV"] = "voicememo_playback"
        let device = ["--device", "voicememo_playback"]
        var commands: [(name: String, speed: Double, path: String, arguments: [String])] = []
        for speed in [1.0, 1.5, 2.0, 0.5] {
            let text = speed == 1 ? "1" : String(speed)
            commands.append(("voicememo \(text)×", speed, voicememo, ["play", input] + device + (speed == 1 ? [] : ["--speed", text])))
            commands.append(("sox play \(speed == 1 ? "" : "tempo ")\(text)", speed, sox, ["-q", input] + (speed == 1 ? [] : ["tempo", text])))
        }
        print("playback: \(seconds) s of 48 kHz stereo 16-bit WAV into an unpaced ALSA file device, \(rounds) rounds interleaved")
        let cpu = ChildProcess.interleavedCPU(
            commands.map { ($0.name, $0.path, $0.arguments) }, rounds: rounds, environment: environment, benchmark: "playback")
        let median = ChildProcess.median
        print("  " + "command".padding(to: 22) + "CPU s (median)".leftPadding(to: 15) + "% of a core".leftPadding(to: 13)
            + "÷ sox".leftPadding(to: 8) + "   all CPU s")
        for (index, command) in commands.enumerated() {
            let played = Double(seconds) / command.speed
            let soxIndex = index % 2 == 0 ? index + 1 : index
            print("  " + command.name.padding(to: 22) + fixed(median(cpu[index]), decimals: 3).leftPadding(to: 15)
                + fixed(100 * median(cpu[index]) / played, decimals: 2).leftPadding(to: 13)
                + (fixed(median(cpu[index]) / median(cpu[soxIndex]), decimals: 2) + "×").leftPadding(to: 8)
                + "   " + cpu[index].map { fixed($0, decimals: 3) }.joined(separator: " "))
        }
        for pair in stride(from: 2, to: commands.count, by: 2) {
            let ratio = median(cpu[pair]) / median(cpu[pair + 1])
            print("goal: \(commands[pair].name) ≤ \(commands[pair + 1].name)'s CPU time: \(ratio <= 1 ? "PASS" : "MISS") (\(fixed(ratio, decimals: 2))×)")
        }
    }
}
