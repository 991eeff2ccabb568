import Foundation
import Transcription

/// Word error rate and speed of our transcription pipeline against the stock
/// `pocketsphinx_continuous` on pocketsphinx-testdata's LibriVox clips, then speed and memory on
/// a long memo (the clips repeated, as 48 kHz stereo FLAC, so resampling is measured too), then
/// the CPU of memos of noise and of silence (`TranscribeBenchmark+Noise.swift`).
///
/// `VOICEMEMO_BENCH_DECODE=whole` decodes every utterance whole (`Transcriber.skipsNonSpeech`
/// off), the peer the skipping of non-speech is measured against.
struct TranscribeBenchmark {
    static let clips = "/usr/share/pocketsphinx/test/data/librivox"
    /// `VOICEMEMO_BENCH_VERBOSE=1` prints each file's words.
    let verbose = ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_VERBOSE"] != nil
    /// Minutes of the long memo.
    let longMinutes = Int(ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_LONG_MINUTES"] ?? "") ?? 10
    /// Minutes of each noise memo.
    let noiseMinutes = Int(ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_NOISE_MINUTES"] ?? "") ?? 10
    let decodesWhole = ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_DECODE"] == "whole"
    /// CPU seconds per second of speech the pipeline may spend.
    static let speechGoal = 0.15

    func run() {
        let model: SpeechModel
        do {
            model = try SpeechModel()
        } catch {
            print("transcribe: \(error)")
            return
        }
        guard let text = try? String(contentsOfFile: Self.clips + "/transcription", encoding: .utf8),
            let ids = try? String(contentsOfFile: Self.clips + "/fileids", encoding: .utf8)
        else {
            print("transcribe: pocketsphinx-testdata is not installed (\(Self.clips))")
            return
        }
        let references = SphinxTranscriptionFile.parse(text)
        let transcriber = Transcriber(model: model)
        transcriber.skipsNonSpeech = !decodesWhole
        print(decodesWhole ? "decoding every utterance whole (VOICEMEMO_BENCH_DECODE=whole)" : "decoding what the speech detector calls speech")
        // Loading the model once, outside the timings.
        let loadStart = Self.cpuSeconds()
        _ = try? transcriber.transcribe(path: Self.clips + "/" + (ids.split(separator: "\n").first.map(String.init) ?? "") + ".wav")
        print("model load + first clip: \(String(format: "%.2f", Self.cpuSeconds() - loadStart)) CPU s")

        var ours = WordErrorRate(errors: 0, referenceWords: 0)
        var stock = WordErrorRate(errors: 0, referenceWords: 0)
        var audioSeconds = 0.0
        var ourCPU = 0.0
        var stockCPU = 0.0
        let stockPath = "/usr/bin/pocketsphinx_continuous"
        let hasStock = FileManager.default.isExecutableFile(atPath: stockPath)
        print("file                                         ref  ours WER  stock WER")
        for id in ids.split(separator: "\n").map(String.init) {
            let path = Self.clips + "/" + id + ".wav"
            guard let reference = references[id] else { continue }
            let before = Self.cpuSeconds()
            guard let result = try? transcriber.transcribe(path: path) else {
                print("\(id): transcription failed")
                continue
            }
            ourCPU += Self.cpuSeconds() - before
            audioSeconds += result.audioDuration
            let ourRate = WordErrorRate.of(reference: reference, hypothesis: result.words.map(\.word))
            ours = ours + ourRate
            var stockText = "–"
            if hasStock {
                let output = NSTemporaryDirectory() + "/stock-\(getpid()).txt"
                let argumentsList = [
                    "-infile", path, "-hmm", model.acousticModel, "-lm", model.languageModel, "-dict", model.dictionary,
                    "-logfn", "/dev/null",
                ]
                if let child = ChildProcess.run(stockPath, argumentsList, environment: [:], output: output),
                    let heard = try? String(contentsOfFile: output, encoding: .utf8)
                {
                    stockCPU += child.cpuSeconds
                    let words = heard.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
                    let rate = WordErrorRate.of(reference: reference, hypothesis: words)
                    stock = stock + rate
                    stockText = String(format: "%.3f", rate.rate)
                    if verbose { print("  stock: \(words.joined(separator: " "))") }
                }
                try? FileManager.default.removeItem(atPath: output)
            }
            if verbose {
                print("  ours (\(result.utterances) utterances): "
                    + result.words.map { "\($0.word)@\(String(format: "%.2f", $0.start))" }.joined(separator: " "))
            }
            print("\(id.padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%3d", reference.count))  "
                + "\(String(format: "%.3f", ourRate.rate))     \(stockText)")
        }
        print(String(format: "all clips: %d words, ours WER %.3f, stock WER %.3f (difference %+.3f; goal ≤ +0.10: %@)",
            ours.referenceWords, ours.rate, stock.rate, ours.rate - stock.rate, ours.rate - stock.rate <= 0.10 ? "PASS" : "MISS"))
        print(String(format: "speed on the clips: ours %.1f× real time (%.2f CPU s for %.1f s), stock %.1f× (%.2f CPU s, model load included)",
            audioSeconds / ourCPU, ourCPU, audioSeconds, audioSeconds / stockCPU, stockCPU))
        print(String(format: "CPU per second of speech on the clips: %.3f s (goal ≤ %.2f: %@)",
            ourCPU / audioSeconds, Self.speechGoal, ourCPU / audioSeconds <= Self.speechGoal ? "PASS" : "MISS"))
        memoCopies(transcriber: transcriber, references: references, ids: ids.split(separator: "\n").map(String.init))
        longMemo(transcriber: transcriber)
        noiseMemos(transcriber: transcriber)
    }

    /// The same clips as memos are recorded: 48 kHz stereo FLAC (sox), so resampling counts.
    private func memoCopies(transcriber: Transcriber, references: [String: [String]], ids: [String]) {
        let folder = NSTemporaryDirectory() + "/voicememo-bench-copies-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var total = WordErrorRate(errors: 0, referenceWords: 0)
        for id in ids {
            let copy = folder + "/" + id + ".flac"
            guard let reference = references[id],
                ChildProcess.run("/usr/bin/sox", [Self.clips + "/" + id + ".wav", "-r", "48000", "-c", "2", copy], environment: [:])?.status == 0,
                let result = try? transcriber.transcribe(path: copy)
            else {
                print("48 kHz stereo copies: needs sox")
                return
            }
            total = total + WordErrorRate.of(reference: reference, hypothesis: result.words.map(\.word))
            if verbose { print("  48k stereo: " + result.words.map(\.word).joined(separator: " ")) }
        }
        print(String(format: "the clips as 48 kHz stereo FLAC memos (sox): ours WER %.3f", total.rate))
    }

    /// The clips repeated to `longMinutes` as 48 kHz stereo FLAC (sox), transcribed once.
    private func longMemo(transcriber: Transcriber) {
        let folder = NSTemporaryDirectory() + "/voicememo-bench-transcribe-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let soxPath = "/usr/bin/sox"
        guard FileManager.default.isExecutableFile(atPath: soxPath),
            let ids = try? String(contentsOfFile: Self.clips + "/fileids", encoding: .utf8)
        else {
            print("long memo: needs sox")
            return
        }
        let clipPaths = ids.split(separator: "\n").map { Self.clips + "/" + $0 + ".wav" }
        // The five clips (24.7 s) and 1 s of silence: about 26 s a round.
        let rounds = max(1, longMinutes * 60 / 26)
        let round = folder + "/round.wav"
        _ = ChildProcess.run(soxPath, clipPaths + [round, "pad", "0", "1"], environment: [:])
        let long = folder + "/long.flac"
        _ = ChildProcess.run(soxPath, Array(repeating: round, count: rounds) + ["-r", "48000", "-c", "2", long], environment: [:])
        let before = Self.cpuSeconds()
        let clock = ContinuousClock()
        let start = clock.now
        guard let result = try? transcriber.transcribe(path: long) else {
            print("long memo: transcription failed")
            return
        }
        let elapsed = clock.now - start
        let cpu = Self.cpuSeconds() - before
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(String(format: "long memo (%.1f min, 48 kHz stereo FLAC): %d words in %d utterances; %.1f× real time on one core "
            + "(%.1f CPU s, %.1f s wall); %.0f CPU s per hour of audio; peak RSS %d MiB",
            result.audioDuration / 60, result.words.count, result.utterances, result.audioDuration / cpu, cpu, wall,
            cpu / result.audioDuration * 3600, Self.peakResidentMiB()))
        print(String(format: "long memo: %.1f of %.1f s decoded; CPU per second of memo %.3f s (goal ≤ %.2f: %@)",
            result.decodedDuration, result.audioDuration, cpu / result.audioDuration, Self.speechGoal,
            cpu / result.audioDuration <= Self.speechGoal ? "PASS" : "MISS"))
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }

    static func peakResidentMiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss / 1024
    }
}
