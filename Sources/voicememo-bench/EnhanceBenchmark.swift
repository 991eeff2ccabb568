import Foundation

/// CPU time of enhancing 60 s of a memo against sox's `noisered` on the same file, side by side.
///
/// The file: 60 s of 48 kHz mono 16-bit WAV, espeak-ng speech repeated over pink noise 20 dB
/// under it (white noise alone when espeak-ng is missing). `voicememo export MEMO OUT.wav
/// --enhance` (decode, SpeechEnhancer, encode; the memo adopted once beforehand), against
/// `sox IN OUT.wav noisered PROFILE 0.21` (the profile taken from the first second, once, not
/// timed) and, for the cost of reading and writing alone, `voicememo export` to FLAC without
/// `--enhance` (a WAV would be a file copy). CPU is user + system of the child (`wait4`),
/// rounds interleaved, medians; "× real time" is CPU over the 60 s of audio (goal ≤ 0.05×).
struct EnhanceBenchmark {
    let seconds = 60
    let rounds = 5

    func run() {
        let voicememo = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-enhance-\(getpid())")
        let library = work.appendingPathComponent("library")
        try? FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let input = library.appendingPathComponent("noisy.wav").path
        let script = """
            set -e
            cd '\(work.path)'
            if command -v espeak-ng > /dev/null; then
              espeak-ng -w s.wav "Yesterday I finished the export prompt, and today I write the tests. No blockers, but the review is slow."
              sox -R s.wav -r 48000 -b 16 speech.wav gain -n -20 pad 0 1 repeat 12
              sox -R speech.wav -b 16 speech60.wav trim 0 \(seconds)
              sox -R -n -r 48000 -c 1 -b 16 noise.wav synth \(seconds) pinknoise gain -n -40
              sox -R -m -v 1 speech60.wav -v 1 noise.wav '\(input)'
            else
              sox -R -n -r 48000 -c 1 -b 16 '\(input)' synth \(seconds) whitenoise gain -n -30
            fi
            sox '\(input)' -n trim 0 1 noiseprof profile
            """
        guard let made = ChildProcess.run("/bin/bash", ["-c", script], environment: ProcessInfo.processInfo.environment), made.status == 0 else {
            printToStandardError("voicememo-bench enhance: sox could not make the input (apt-get install sox espeak-ng)")
            exit(1)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["VOICEMEMO_HOME"] = library.path
        guard ChildProcess.run(voicememo, ["list"], environment: environment)?.status == 0 else {
            printToStandardError("voicememo-bench enhance: voicememo list failed")
            exit(1)
        }
        let output = work.appendingPathComponent("out.wav").path
        let commands: [(name: String, path: String, arguments: [String])] = [
            ("voicememo export --enhance", voicememo, ["export", "noisy", output, "--force", "--enhance"]),
            ("sox noisered 0.21", "/usr/bin/sox", [input, output, "noisered", work.appendingPathComponent("profile").path, "0.21"]),
            ("voicememo export (copy)", voicememo, ["export", "noisy", work.appendingPathComponent("copy.flac").path, "--force"]),
        ]
        print("enhance: \(seconds) s of 48 kHz mono 16-bit WAV (speech over pink noise), \(rounds) rounds interleaved")
        let cpu = ChildProcess.interleavedCPU(commands, rounds: rounds, environment: environment, benchmark: "enhance")
        let median = ChildProcess.median
        print("  " + "command".padding(to: 28) + "CPU s (median)".leftPadding(to: 15) + "× real time".leftPadding(to: 13)
            + "÷ sox".leftPadding(to: 8) + "   all CPU s")
        for (index, command) in commands.enumerated() {
            print("  " + command.name.padding(to: 28) + fixed(median(cpu[index]), decimals: 3).leftPadding(to: 15)
                + fixed(median(cpu[index]) / Double(seconds), decimals: 4).leftPadding(to: 13)
                + (fixed(median(cpu[index]) / median(cpu[1]), decimals: 2) + "×").leftPadding(to: 8)
                + "   " + cpu[index].map { fixed($0, decimals: 3) }.joined(separator: " "))
        }
        let ratio = median(cpu[0]) / Double(seconds)
        print("goal: voicememo export --enhance ≤ 0.05× real time: \(ratio <= 0.05 ? "PASS" : "MISS") (\(fixed(ratio, decimals: 4))×)")
    }
}
