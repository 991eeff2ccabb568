import Foundation
import Transcription

/// PocketSphinx's word error on read speech in noise before and after `enhance`, over enough
/// words to decide (≥ 400) and averaged over five frame offsets: a memo delayed by a few
/// milliseconds moves PocketSphinx's 10 ms frames against the speech, and with few words that
/// alone moves the count by several.
///
/// The speech: `flite`'s `slt` voice reading `sentences` (446 words), each sentence after 1.2 s
/// of silence, at 16 kHz and −26 dBFS RMS; the noise `sox -R` (the same every run), white, pink
/// or fan-like (brown noise with a 100 + 200 Hz hum) at −26 − SNR dBFS RMS, for SNRs of 0, 10
/// and 20 dB. Each case is made five times, delayed by 0, 2, 4, 6 and 8 ms; each is transcribed
/// (`voicememo transcribe`), enhanced (`voicememo enhance`) and the enhanced memo transcribed.
/// The table gives the word error rate of each side averaged over the offsets, its range, and
/// the change. Run with `VOICEMEMO_BENCH_NOISES=fan` (a space-separated list) for fewer noises.
struct EnhanceWordsBenchmark {
    static let sentences = [
        "please remember to call the bank on monday morning about the new account and ask them why the last payment was late",
        "the meeting with the design team moved to thursday at two in the afternoon in the small room on the third floor",
        "we need more paper for the printer and a new cable for the screen in the office before the end of the week",
        "my sister will arrive at the station at half past six so i should leave the house early to find a place to park",
        "the doctor said that the results look good and that i should come back in three months for another test",
        "buy milk bread eggs and some fresh fruit on the way home and do not forget the coffee for the weekend",
        "the price of the old car was too high but the dealer said he could lower it if we paid the whole amount today",
        "ask john if he has read the report yet because the manager wants to discuss the numbers at the next meeting",
        "the children have a school trip to the museum next friday and they need a packed lunch and a warm coat",
        "i think the garden needs more water this summer because the weather has been very hot and dry for weeks",
        "send the letter to the city office and keep a copy of it in the blue folder on the top shelf of my desk",
        "the train was late again this morning so i missed the first part of the talk about the future of the company",
        "we should plan a small party for her birthday and invite the people from work and a few old friends from school",
        "the new kitchen will take about four weeks to build and we will have to cook on the small stove until then",
        "remind me to pay the phone bill and to check the time of the game on sunday before i make any other plans",
        "the hotel near the beach was quiet and clean and the staff were kind but the food in the evening was cold",
        "tomorrow i have to finish the slides for the talk and write a short note to the team about the changes",
        "the water in the lake was cold but the children swam for an hour and then we had a long walk in the woods",
        "he told me that the house on the corner is for sale and that the family is moving to the north of the country",
        "call the garage and ask if the car is ready and how much the repair will cost before i go to pick it up",
    ]
    static var reference: [String] { sentences.flatMap { $0.split(separator: " ").map(String.init) } }
    static let offsetsMilliseconds = [0, 2, 4, 6, 8]

    typealias Failure = EnhanceQualityBenchmark.Failure

    let voicememo = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("voicememo").path

    func run() {
        guard FileManager.default.fileExists(atPath: "/usr/bin/flite") else {
            printToStandardError("voicememo-bench enhance-words: flite is not installed (make deps)")
            exit(1)
        }
        let noises = ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_NOISES"].map { $0.split(separator: " ").map(String.init) }
            ?? ["white", "pink", "fan"]
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-enhance-words-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try makeSpeech(in: work.path)
        } catch {
            printToStandardError("voicememo-bench enhance-words: cannot make the speech: \(error)")
            exit(1)
        }
        print("enhance-words: flite slt reading \(Self.reference.count) words, 16 kHz, −26 dBFS; WER averaged over offsets of \(Self.offsetsMilliseconds.map(String.init).joined(separator: ", ")) ms")
        print("| noise | SNR | WER noisy (range) | WER enhanced (range) | change |")
        print("|---|---|---|---|---|")
        var changes: [Double] = []
        for noise in noises {
            for snr in [0, 10, 20] {
                do {
                    let (noisy, enhanced) = try measure(noise: noise, snr: snr, work: work)
                    let change = mean(enhanced) - mean(noisy)
                    changes.append(change)
                    print(String(
                        format: "| %@ | %d dB | %.3f (%.3f–%.3f) | %.3f (%.3f–%.3f) | %+.3f |", noise, snr, mean(noisy),
                        noisy.min() ?? 0, noisy.max() ?? 0, mean(enhanced), enhanced.min() ?? 0, enhanced.max() ?? 0, change))
                } catch {
                    printToStandardError("voicememo-bench enhance-words: \(noise) at \(snr) dB: \(error)")
                    exit(1)
                }
            }
        }
        let worse = changes.filter { $0 > 0 }.count
        print(String(format: "mean change %+.3f; worse in %d of %d cases", mean(changes), worse, changes.count))
    }

    private func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    /// The word error rates of one case at each offset: the noisy memo's and the enhanced one's.
    private func measure(noise: String, snr: Int, work: URL) throws -> (noisy: [Double], enhanced: [Double]) {
        var noisy: [Double] = []
        var enhanced: [Double] = []
        for offset in Self.offsetsMilliseconds {
            let home = work.appendingPathComponent("case-\(noise)-\(snr)-\(offset)")
            let library = home.appendingPathComponent("library")
            try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: home) }
            var environment = ProcessInfo.processInfo.environment
            environment["VOICEMEMO_HOME"] = library.path
            environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
            let name = "\(noise)_\(snr)_\(offset)"
            try makeMemo(noise, snr: snr, offsetMilliseconds: offset, name: name, work: work.path, library: library.path)
            noisy.append(try wordErrorRate(of: name, environment: environment))
            let made = try output(voicememo, ["enhance", name, "--json"], environment: environment)
            guard let memos = try JSONSerialization.jsonObject(with: Data(made.utf8)) as? [[String: Any]],
                let id = memos.first?["id"] as? Int
            else { throw Failure(description: "enhance printed \(made)") }
            enhanced.append(try wordErrorRate(of: String(id), environment: environment))
        }
        return (noisy, enhanced)
    }

    /// `speech.wav` in `folder`: each sentence spoken by flite after 1.2 s of silence, at
    /// −26 dBFS RMS over the speech.
    private func makeSpeech(in folder: String) throws {
        var script = """
            set -e
            cd '\(folder)'
            rms() { sox "$1" -n stat 2>&1 | awk '/RMS     amplitude/ { print 20 * log($3) / log(10) }'; }
            sox -R -n -r 16000 -c 1 -b 16 gap.wav trim 0 1.2
            parts=""
            spoken=""

            """
        for (index, sentence) in Self.sentences.enumerated() {
            script += """
                flite -voice slt -t "\(sentence)" -o raw\(index).wav
                sox -R raw\(index).wav -r 16000 -c 1 -b 16 s\(index).wav
                parts="$parts gap.wav s\(index).wav"
                spoken="$spoken s\(index).wav"

                """
        }
        script += """
            sox -R $spoken spoken.wav
            sox -R $parts gap.wav -b 16 speech.wav gain "$(awk -v s="$(rms spoken.wav)" 'BEGIN { print -26 - s }')"
            """
        _ = try output("/bin/bash", ["-c", script], environment: ProcessInfo.processInfo.environment)
    }

    /// The noisy memo `NAME.wav` in the library: the speech delayed by `offsetMilliseconds`, in
    /// the noise at `snr` dB.
    private func makeMemo(_ noise: String, snr: Int, offsetMilliseconds: Int, name: String, work: String, library: String) throws {
        let script = """
            set -e
            cd '\(work)'
            rms() { sox "$1" -n stat 2>&1 | awk '/RMS     amplitude/ { print 20 * log($3) / log(10) }'; }
            sox -R speech.wav delayed.wav pad \(Double(offsetMilliseconds) / 1000) 0
            D=$(soxi -D delayed.wav)
            \(EnhanceQualityBenchmark.noiseScript(noise, snr: snr))
            sox -R -m -v 1 delayed.wav -v 1 noise.wav -b 16 '\(library)/\(name).wav'
            """
        _ = try output("/bin/bash", ["-c", script], environment: ProcessInfo.processInfo.environment)
    }

    private func wordErrorRate(of memo: String, environment: [String: String]) throws -> Double {
        try EnhanceQualityBenchmark.wordErrorRate(
            of: memo, reference: Self.reference, voicememo: voicememo, environment: environment)
    }

    private func output(_ path: String, _ arguments: [String], environment: [String: String]) throws -> String {
        try EnhanceQualityBenchmark.output(path, arguments, environment: environment)
    }
}
