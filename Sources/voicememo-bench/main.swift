// voicememo-bench: performance checks that need a release build, one subcommand each.
//
// Exit codes: 0 when the benchmark ran (its goals are reported as PASS/MISS, not as the exit
// code, so a busy machine does not fail a build), 2 for usage errors.

#if canImport(Glibc)
import Glibc
#endif

/// A benchmark the tool can run by name.
struct Benchmark {
    let name: String
    let summary: String
    let run: () -> Void
}

/// Every benchmark; a new one (`record`, `library`) is one more entry here and a file of its own.
let benchmarks: [Benchmark] = [
    Benchmark(
        name: "meter",
        summary: "LevelMeter throughput over 64 MiB of stereo Int16 and Float32, against memcpy",
        run: { MeterBenchmark().run() }),
    Benchmark(
        name: "record",
        summary: "CPU time of `voicememo record` vs `arecord` (WAV) and `arecord | ffmpeg` (MP3, M4A), 10 min from an unpaced ALSA file device",
        run: { RecordBenchmark(seconds: 600).run() }),
    Benchmark(
        name: "stop",
        summary: "Recorder.stop() after 1 h of WAV, MP3 and Ogg Vorbis from an unpaced ALSA file device",
        run: { StopBenchmark(seconds: StopBenchmark.secondsFromEnvironment()).run() }),
    Benchmark(
        name: "library",
        summary: "Opening the memo library and list --json at 1 000 and 10 000 memos",
        run: { LibraryBenchmark().run() }),
    Benchmark(
        name: "loudness",
        summary: "LoudnessMeter and TruePeakMeter over 60 s of 48 kHz stereo, against real time and LevelMeter",
        run: { LoudnessBenchmark().run() }),
    Benchmark(
        name: "statistics",
        summary: "A memo's statistics in CPU s per 10 min (noise, speech, tones), and `analyze` vs ffmpeg ebur128",
        run: { StatisticsBenchmark(seconds: StatisticsBenchmark.secondsFromEnvironment()).run() }),
    Benchmark(
        name: "ebur128",
        summary: "LoudnessMeter and TruePeakMeter vs libebur128: EBU Tech 3341/3342 cases, CPU over 1 h of stereo",
        run: { EBUR128Benchmark(seconds: EBUR128Benchmark.secondsFromEnvironment()).run() }),
    Benchmark(
        name: "transcribe",
        summary: "Word error rate and speed of transcription vs pocketsphinx_continuous, a long memo, and memos of noise and silence",
        run: { TranscribeBenchmark().run() }),
    Benchmark(
        name: "ui",
        summary: "The full-screen app in tmux: CPU and terminal bytes while metering, and when idle",
        run: { UIBenchmark().run() }),
    Benchmark(
        name: "captions",
        summary: "Live captions in the app on read speech in real time: frame gaps, CPU and the captured length with captions on vs off, and the draft's lag",
        run: { CaptionBenchmark().run() }),
    Benchmark(
        name: "vox",
        summary: "Voice activation in synthetic rooms (6 noises x 5 levels; phrases, one-word answers, non-speech events): speech detector, level only, sox silence",
        run: { VoxBenchmark().run() }),
    Benchmark(
        name: "playback",
        summary: "CPU of `voicememo play` at 1x, 1.5x, 2x, 0.5x (SoundTouch) beside sox's `play … tempo` on the same file",
        run: { PlaybackBenchmark().run() }),
    Benchmark(
        name: "enhance",
        summary: "CPU of `voicememo export --enhance` (SpeexDSP) on 60 s beside sox's `noisered` on the same file",
        run: { EnhanceBenchmark().run() }),
    Benchmark(
        name: "enhance-quality",
        summary: "What `enhance` does to read speech in 9 noises: floor in the pauses, loudness, word error rate",
        run: { EnhanceQualityBenchmark().run() }),
    Benchmark(
        name: "enhance-words",
        summary: "PocketSphinx's word error before and after `enhance` on 446 read words in 9 noises, averaged over 5 frame offsets",
        run: { EnhanceWordsBenchmark().run() }),
    Benchmark(
        name: "enhance-compare",
        summary: "SpeexDSP's denoiser beside WebRTC's noise suppression on speech in 3 noises at 4 SNRs: STOI and PESQ",
        run: { EnhanceCompareBenchmark().run() }),
    Benchmark(
        name: "stream",
        summary: "RSS of `voicememo play URL` over 24 h of a live MP3 from the loopback server, unpaced (VOICEMEMO_BENCH_HOURS)",
        run: { StreamMemoryBenchmark(hours: StreamMemoryBenchmark.hoursFromEnvironment()).run() }),
    Benchmark(
        name: "startup",
        summary: "CPU ms per start of `voicememo --version` and `list --json` beside arecord and sox (VOICEMEMO_BENCH_BINARY, _RUNS)",
        run: { StartupBenchmark(voicememo: StartupBenchmark.binaryFromEnvironment(), runs: StartupBenchmark.runsFromEnvironment()).run() }),
    Benchmark(
        name: "latency",
        summary: "A burst played into a PulseAudio null sink to the app's first frame showing it (its frame log), beside parec; overruns over 60 s",
        run: { LatencyBenchmark(bursts: LatencyBenchmark.burstsFromEnvironment(), recordSeconds: LatencyBenchmark.secondsFromEnvironment()).run() }),
    Benchmark(
        name: "gaps",
        summary: "The app's longest gap between frames during slow work (stop, rename, purge, play, input, 10 000 memos)",
        run: { GapBenchmark().run() }),
]

/// The usage text, listing every benchmark.
func usage(_ benchmarks: [Benchmark]) -> String {
    var text = "usage: voicememo-bench <benchmark>\n\nbenchmarks:\n"
    for benchmark in benchmarks {
        text += "  \(benchmark.name.padding(to: 10))\(benchmark.summary)\n"
    }
    text += "  room      voicememo-bench room white|pink|brown|hum|fan|babble DBFS SEED OUT.wav: write a room for vox (prints each phrase's onset and end)\n"
    text += "  answers   voicememo-bench answers white|pink|brown|hum|fan|babble DBFS SEED OUT.wav: one-word answers and non-speech events in a room (prints each sound's name, onset and end)\n"
    text += "  vox NOISE…  voice activation in the named noises only (white pink brown hum fan babble)\n"
    text += "  meeting   voicememo-bench meeting [SECONDS]: CPU of a meeting (two PulseAudio sources in one memo) vs two parecords side by side, and its channels' offset at the start and the end (60 s when not given)\n"
    text += "  echo      voicememo-bench echo [SECONDS]: CPU of a meeting with and without --echo-cancel, two of the same sound at once, and how much lower the echo is in the microphone's channel (60 s when not given)\n"
    text += "  speech    voicememo-bench speech FILE [--frames]: what the speech detector says of each 10 ms of a file\n"
    text += "\nBuild with `swift build -c release` first; debug builds measure nothing useful."
    return text
}

/// The optional SECONDS argument of the benchmark `name` (`default` when not given); nil, said
/// on standard error, when it is not a whole number of at least `minimum`.
func secondsArgument(_ arguments: [String], of name: String, minimum: Int, default seconds: Int = 60) -> Int? {
    guard arguments.count <= 1, let value = arguments.isEmpty ? seconds : Int(arguments[0]), value >= minimum else {
        printToStandardError("voicememo-bench: \(name) takes a number of seconds, at least \(minimum) (\(seconds) when not given)")
        return nil
    }
    return value
}

/// Writes a line to standard error; unbuffered, like a diagnostic should be.
func printToStandardError(_ text: String) {
    let line = text + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { bytes in
        write(2, bytes.baseAddress, bytes.count - 1)
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "speech" {
    exit(SpeechFrames.command(Array(arguments.dropFirst())))
}
if arguments.first == "answers" {
    exit(AnswerSynthesis.command(Array(arguments.dropFirst())))
}
if arguments.first == "meeting" {
    exit(MeetingBenchmark.command(Array(arguments.dropFirst())))
}
if arguments.first == "echo" {
    exit(EchoBenchmark.command(Array(arguments.dropFirst())))
}
if arguments.first == "room" {
    exit(RoomSynthesis.command(Array(arguments.dropFirst())))
}
if arguments.first == "vox", arguments.count > 1 {
    let noises = arguments.dropFirst().map { RoomSynthesis.Noise(rawValue: $0) }
    guard noises.allSatisfy({ $0 != nil }) else {
        printToStandardError("voicememo-bench: vox takes noises among \(RoomSynthesis.Noise.allCases.map(\.rawValue).joined(separator: ", "))")
        exit(2)
    }
    VoxBenchmark(noises: noises.compactMap { $0 }).run()
    exit(0)
}
if arguments == ["--help"] || arguments == ["-h"] {
    print(usage(benchmarks))
    exit(0)
}
guard arguments.count == 1, let benchmark = benchmarks.first(where: { $0.name == arguments[0] })
else {
    let complaint =
        arguments.isEmpty
        ? "missing benchmark name"
        : "unknown arguments: \(arguments.joined(separator: " "))"
    printToStandardError("voicememo-bench: \(complaint)\n\(usage(benchmarks))")
    exit(2)
}
benchmark.run()
