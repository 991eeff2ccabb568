import Foundation
import Transcription

/// What `enhance` does to read speech in noise: the noise floor in the pauses, the speech's
/// loudness and PocketSphinx's word error rate, before and after, for white, pink and fan-like
/// noise (brown noise with a 100 + 200 Hz hum) at 0, 10 and 20 dB SNR.
///
/// The speech: three of pocketsphinx-testdata's LibriVox clips (15.4 s, with a reference
/// transcription), 2 s of silence before them and 1.5 s after each, at 16 kHz, the clips' RMS
/// at −26 dBFS; the noise `sox -R` (the same every run) at −26 − SNR dBFS RMS. Goals: the floor
/// (RMS over 3.9 s of the pauses) 15 dB or more down; the enhanced memo's integrated loudness
/// (`voicememo analyze`) within 1 LU of the clean speech's; the word error rate (`voicememo
/// transcribe`) no worse on the enhanced memo than on the noisy one.
struct EnhanceQualityBenchmark {
    static let clips = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-"
    static let reference = (
        "and mister john dashwood had then leisure to consider how much there might be prudently in his power to do for them "
            + "he was not an ill disposed young man unless to be rather cold hearted and rather selfish is to be ill disposed"
    ).split(separator: " ").map(String.init)
    /// The pauses, in seconds: the end of the lead-in (after 1 s for the denoiser to learn the
    /// noise) and the middle of each 1.5 s pause after a clip.
    static let pauses: [(start: Double, end: Double)] = [(1.0, 1.9), (9.4, 10.4), (13.9, 14.9), (20.7, 21.7)]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let voicememo = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("voicememo").path

    func run() {
        guard FileManager.default.fileExists(atPath: Self.clips + "0870.wav") else {
            printToStandardError("voicememo-bench enhance-quality: pocketsphinx-testdata is not installed (make deps)")
            exit(1)
        }
        print("enhance-quality: LibriVox speech (44 words) in noise, 16 kHz; goals: floor ≥ 15 dB down, loudness within 1 LU, WER no worse")
        print("| noise | SNR | floor in the pauses | floor drop | clean LUFS | noisy LUFS | enhanced LUFS | Δ loudness | WER noisy → enhanced | enhance s |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        var misses: [String] = []
        for noise in ["white", "pink", "fan"] {
            for snr in [0, 10, 20] {
                do {
                    misses += try measure(noise: noise, snr: snr)
                } catch {
                    printToStandardError("voicememo-bench enhance-quality: \(noise) at \(snr) dB: \(error)")
                    exit(1)
                }
            }
        }
        print(misses.isEmpty ? "all goals met" : "goals missed: " + misses.joined(separator: "; "))
    }

    /// One case: its table row printed, the goals it misses returned.
    private func measure(noise: String, snr: Int) throws -> [String] {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-enhance-quality-\(getpid())")
        let library = work.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var environment = ProcessInfo.processInfo.environment
        environment["VOICEMEMO_HOME"] = library.path
        environment["XDG_CONFIG_HOME"] = work.appendingPathComponent("config").path
        let name = "\(noise)_\(snr)"
        try makeMemo(noise, snr: snr, name: name, in: work.path, library: library.path)

        let noisyWER = try wordErrorRate(of: name, environment: environment)
        let started = Date()
        let enhanced = try output(voicememo, ["enhance", name, "--json"], environment: environment)
        let enhanceSeconds = Date().timeIntervalSince(started)
        guard let made = try JSONSerialization.jsonObject(with: Data(enhanced.utf8)) as? [[String: Any]],
            let newID = made.first?["id"] as? Int, let newPath = made.first?["path"] as? String
        else { throw Failure(description: "enhance printed \(enhanced)") }
        let originalPath = library.appendingPathComponent("\(name).wav").path
        let movedOriginal = try deletedPath(environment: environment) ?? originalPath
        let enhancedWER = try wordErrorRate(of: String(newID), environment: environment)

        let floorBefore = try floorDB(movedOriginal)
        let floorAfter = try floorDB(newPath)
        let clean = try loudness(work.appendingPathComponent("clean.wav").path, environment: environment)
        let noisyLoudness = try loudness(movedOriginal, environment: environment)
        let enhancedLoudness = try loudness(newPath, environment: environment)
        print(String(
            format: "| %@ | %d dB | %.1f → %.1f dBFS | %.1f dB | %.2f | %.2f | %.2f | %+.2f LU | %.2f → %.2f | %.1f |",
            noise, snr, floorBefore, floorAfter, floorBefore - floorAfter, clean, noisyLoudness, enhancedLoudness,
            enhancedLoudness - clean, noisyWER, enhancedWER, enhanceSeconds))
        var misses: [String] = []
        if floorBefore - floorAfter < 15 { misses.append("\(name) floor") }
        if abs(enhancedLoudness - clean) > 1 { misses.append("\(name) loudness") }
        if enhancedWER > noisyWER { misses.append("\(name) WER") }
        return misses
    }

    /// The clean speech `clean.wav` in `folder` and the noisy memo `NAME.wav` in the library.
    private func makeMemo(_ noise: String, snr: Int, name: String, in folder: String, library: String) throws {
        let script = """
            set -e
            cd '\(folder)'
            rms() { sox "$1" -n stat 2>&1 | awk '/RMS     amplitude/ { print 20 * log($3) / log(10) }'; }
            C=\(Self.clips)
            sox -R ${C}0870.wav ${C}0880.wav ${C}0890.wav speech.wav
            sox -R -n -r 16000 -c 1 -b 16 gap.wav trim 0 1.5
            sox -R -n -r 16000 -c 1 -b 16 lead.wav trim 0 2
            sox -R lead.wav ${C}0870.wav gap.wav ${C}0880.wav gap.wav ${C}0890.wav gap.wav -b 16 clean.wav gain "$(awk -v s="$(rms speech.wav)" 'BEGIN { print -26 - s }')"
            D=$(soxi -D clean.wav)
            \(Self.noiseScript(noise, snr: snr))
            sox -R -m -v 1 clean.wav -v 1 noise.wav -b 16 '\(library)/\(name).wav'
            """
        _ = try output("/bin/bash", ["-c", script], environment: ProcessInfo.processInfo.environment)
    }

    /// Bash lines writing `noise.wav`: `noise` ("white", "pink" or "fan": brown noise with a 100 +
    /// 200 Hz hum) of `$D` seconds at 16 kHz, `sox -R` (the same every run), at −26 − `snr` dBFS
    /// RMS; they need the `rms` function.
    static func noiseScript(_ noise: String, snr: Int) -> String {
        let synth = ["white": "synth \"$D\" whitenoise", "pink": "synth \"$D\" pinknoise"][noise] ?? ""
        return """
            if [ "\(noise)" = fan ]; then
              sox -R -n -r 16000 -c 1 -b 16 brown.wav synth "$D" brownnoise
              sox -R -n -r 16000 -c 1 -b 16 hum.wav synth "$D" sine 100 sine 200
              sox -R -m -v 1 brown.wav -v 0.25 hum.wav raw-noise.wav
            else
              sox -R -n -r 16000 -c 1 -b 16 raw-noise.wav \(synth)
            fi
            sox -R raw-noise.wav -b 16 noise.wav gain "$(awk -v r="$(rms raw-noise.wav)" 'BEGIN { print -26 - \(snr) - r }')"
            """
    }

    /// The RMS level over the pauses of `path`, in dBFS.
    private func floorDB(_ path: String) throws -> Double {
        var energy = 0.0, seconds = 0.0
        for pause in Self.pauses {
            let stat = try output(
                "/bin/bash", ["-c", "sox '\(path)' -n trim \(pause.start) \(pause.end - pause.start) stat 2>&1"],
                environment: ProcessInfo.processInfo.environment)
            let line = stat.split(separator: "\n").first { $0.hasPrefix("RMS     amplitude:") }
            guard let amplitude = line.flatMap({ $0.split(separator: " ").last }).flatMap({ Double($0) }) else {
                throw Failure(description: "sox stat printed \(stat)")
            }
            energy += amplitude * amplitude * (pause.end - pause.start)
            seconds += pause.end - pause.start
        }
        return 10 * log10(max(energy / seconds, 1e-20))
    }

    private func loudness(_ path: String, environment: [String: String]) throws -> Double {
        let text = try output(voicememo, ["analyze", path, "--json"], environment: environment)
        guard let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let value = json["loudness_lufs"] as? Double
        else { throw Failure(description: "analyze printed \(text)") }
        return value
    }

    private func wordErrorRate(of memo: String, environment: [String: String]) throws -> Double {
        try Self.wordErrorRate(of: memo, reference: Self.reference, voicememo: voicememo, environment: environment)
    }

    /// `voicememo transcribe MEMO`'s word error rate against `reference`.
    static func wordErrorRate(of memo: String, reference: [String], voicememo: String, environment: [String: String]) throws -> Double {
        struct Words: Decodable {
            struct Word: Decodable { let word: String }
            let words: [Word]
        }
        let text = try output(voicememo, ["transcribe", memo, "--json"], environment: environment)
        let words = try JSONDecoder().decode(Words.self, from: Data(text.utf8)).words.map(\.word)
        return WordErrorRate.of(reference: reference, hypothesis: words).rate
    }

    /// Where the original went (Recently Deleted) once enhanced.
    private func deletedPath(environment: [String: String]) throws -> String? {
        let text = try output(voicememo, ["list", "--json", "--deleted"], environment: environment)
        let memos = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        return memos?.first?["path"] as? String
    }

    private func output(_ path: String, _ arguments: [String], environment: [String: String]) throws -> String {
        try Self.output(path, arguments, environment: environment)
    }

    /// Runs `path` and returns its standard output; throws when it fails.
    static func output(_ path: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-out-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        guard let result = ChildProcess.run(path, arguments, environment: environment, output: file), result.status == 0 else {
            throw Failure(description: "\(path) \(arguments.joined(separator: " ")) failed")
        }
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }
}
