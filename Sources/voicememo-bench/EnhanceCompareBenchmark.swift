import Foundation
import Metering
import SoundFiles
import SpeechEnhancement
import VoiceActivation

/// SpeexDSP's denoiser (`SpeechEnhancer`, what `enhance` uses) beside WebRTC's noise
/// suppression (`WebRTCNoiseSuppressor`, each of its four levels) on read speech in noise, scored
/// by STOI (`pystoi` 0.4.1) and wideband PESQ (`pesq` 0.0.4, ITU-T P.862.2) against the clean
/// speech, with the floor in the pauses, the loudness and the CPU of each engine.
///
/// The speech: three of pocketsphinx-testdata's LibriVox clips (15.4 s), 2 s of silence before
/// them and 1.5 s after each, at 16 kHz, RMS −26 dBFS over the speech; the noise seeded white,
/// pink, brown and fan (`NoiseGenerator`) at −26 − SNR dBFS RMS, SNR 0, 10 and 20 dB. Every
/// engine runs in this process on the same samples; each output's own delay is taken out before
/// STOI (PESQ aligns by itself); the scores come from a Python virtual environment of the
/// benchmark's own (`.build/bench-venv`, made with `python3 -m venv` and pip when missing; never
/// the product's). The floor is the RMS of the pauses (the lead's 1.0–1.9 s and the middle
/// second of each 1.5 s gap) against the noisy input's; the loudness is the output's integrated
/// loudness (BS.1770) against the clean speech's.
struct EnhanceCompareBenchmark {
    static let rate = 16_000
    static let snrs = [0, 10, 20]
    static let noises: [RoomSynthesis.Noise] = [.white, .pink, .brown, .fan]

    /// One denoiser under test.
    struct Engine {
        let name: String
        let run: ([Float]) throws -> [Float]
        var seconds = 0.0
        var stoiBelowNoisy = 0
        var stoiChange = 0.0
        var pesqChange = 0.0
        var floorDrops: [Double] = []
        var loudnessChanges: [Double] = []
        var scores: [(stoi: String, pesq: String)] = []
    }

    func run() {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let venv = executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("bench-venv").path
        let work = NSTemporaryDirectory() + "voicememo-bench-enhance-compare-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: work) }
            let python = try Self.scoringPython(venv: venv)
            let (clean, pauses) = try Self.cleanSpeech()
            try Self.writeFloats(clean, to: work + "/clean.f32")
            let script = work + "/score.py"
            try Self.scoringScript.write(toFile: script, atomically: true, encoding: .utf8)
            let cleanLoudness = Self.loudness(clean)
            var engines = [Engine(name: "SpeexDSP", run: Self.speexDSP)]
            for level in WebRTCNoiseSuppressor.Level.allCases {
                engines.append(Engine(name: "WebRTC \(Self.name(level))", run: { try Self.webRTC($0, level: level) }))
            }
            let high = 1 + WebRTCNoiseSuppressor.Level.allCases.firstIndex(of: .high)!
            print("enhance-compare: LibriVox speech (15.4 s) in noise, 16 kHz; STOI (0…1) and wideband PESQ (1…4.6) against the clean speech")
            print("| noise | SNR (dB) | STOI noisy | STOI SpeexDSP | STOI WebRTC high | PESQ noisy | PESQ SpeexDSP | PESQ WebRTC high | SpeexDSP floor (dB down), loudness (LU) |")
            print("|---|---|---|---|---|---|---|---|---|")
            var cases = 0
            var delays: [String] = []
            for noise in Self.noises {
                for snr in Self.snrs {
                    cases += 1
                    var generator = NoiseGenerator(seed: 1)
                    let room = generator.noise(noise, count: clean.count, rmsDBFS: -26 - Double(snr))
                    let noisy = zip(clean, room).map { $0 + $1 }
                    var paths = [work + "/noisy.f32"]
                    try Self.writeFloats(noisy, to: paths[0])
                    let noisyFloor = Self.rms(noisy, over: pauses)
                    for index in engines.indices {
                        let clock = ContinuousClock()
                        let start = clock.now
                        let output = try engines[index].run(noisy)
                        engines[index].seconds += Self.seconds(clock.now - start)
                        engines[index].floorDrops.append(noisyFloor - Self.rms(output, over: pauses))
                        engines[index].loudnessChanges.append(Self.loudness(output) - cleanLoudness)
                        paths.append(work + "/engine\(index).f32")
                        try Self.writeFloats(output, to: paths[paths.count - 1])
                    }
                    let output = work + "/score.txt"
                    guard let result = ChildProcess.run(
                        python, [script, work + "/clean.f32", String(Self.rate)] + paths,
                        environment: ProcessInfo.processInfo.environment, output: output), result.status == 0
                    else { throw RoomSynthesis.Failure.tool("scoring failed (\(python) \(script))") }
                    let fields = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
                        .map { $0.split(separator: " ").map(String.init) }
                    guard fields.count == paths.count, fields.allSatisfy({ $0.count == 3 }),
                        let noisyStoi = Double(fields[0][0]), let noisyPesq = Double(fields[0][1])
                    else { throw RoomSynthesis.Failure.tool("the scores of \(noise.rawValue) at \(snr) dB did not parse: \(fields)") }
                    delays = fields.map { $0[2] }
                    for index in engines.indices {
                        let stoi = Double(fields[index + 1][0]) ?? 0
                        let pesq = Double(fields[index + 1][1]) ?? 0
                        if stoi < noisyStoi { engines[index].stoiBelowNoisy += 1 }
                        engines[index].stoiChange += stoi - noisyStoi
                        engines[index].pesqChange += pesq - noisyPesq
                        engines[index].scores.append((fields[index + 1][0], fields[index + 1][1]))
                    }
                    let stoi = [fields[0][0], fields[1][0], fields[high][0]]
                    let pesq = [fields[0][1], fields[1][1], fields[high][1]]
                    let speex = engines[0]
                    let floorAndLoudness = String(format: "%.1f, %+.2f", speex.floorDrops.last ?? 0, speex.loudnessChanges.last ?? 0)
                    print("| \(noise.rawValue) | \(snr) | \(stoi.joined(separator: " | ")) | \(pesq.joined(separator: " | ")) | \(floorAndLoudness) |")
                }
            }
            let audio = Double(clean.count) / Double(Self.rate) * Double(cases)
            print("")
            print("| engine | cases with STOI below the noisy input's | mean STOI change | mean PESQ change | floor down (dB) | loudness against the clean speech (LU) | CPU (× real time, this build) |")
            print("|---|---|---|---|---|---|---|")
            for engine in engines {
                let floors = engine.floorDrops
                let loudness = engine.loudnessChanges
                print(String(
                    format: "| %@ | %d of %d | %+.3f | %+.2f | %.1f–%.1f | %+.2f to %+.2f | %.4f× |",
                    engine.name, engine.stoiBelowNoisy, cases, engine.stoiChange / Double(cases), engine.pesqChange / Double(cases),
                    floors.min() ?? 0, floors.max() ?? 0, loudness.min() ?? 0, loudness.max() ?? 0, engine.seconds / audio))
            }
            print("")
            print("delay taken out before STOI, in samples (noisy, then each engine): \(delays.joined(separator: ", "))")
        } catch {
            printToStandardError("voicememo-bench enhance-compare: \(error)")
            exit(1)
        }
    }

    static func name(_ level: WebRTCNoiseSuppressor.Level) -> String {
        switch level {
        case .low: "low"
        case .moderate: "moderate"
        case .high: "high"
        case .veryHigh: "very high"
        }
    }

    /// The RMS of `samples` over `ranges`, in dBFS.
    static func rms(_ samples: [Float], over ranges: [Range<Int>]) -> Double {
        var power = 0.0
        var count = 0
        for range in ranges where range.upperBound <= samples.count {
            for index in range { power += Double(samples[index]) * Double(samples[index]) }
            count += range.count
        }
        return 10 * log10(max(power / Double(max(count, 1)), 1e-20))
    }

    /// Integrated loudness (LUFS) of mono `samples` at `rate`.
    static func loudness(_ samples: [Float]) -> Double {
        var meter = LoudnessMeter(channels: 1, sampleRate: rate)
        samples.withUnsafeBufferPointer { meter.consume($0) }
        return meter.integratedLoudness ?? -70
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The Python of the benchmark's virtual environment with pystoi and pesq, made when missing.
    static func scoringPython(venv: String) throws -> String {
        let python = venv + "/bin/python"
        let check = ChildProcess.run(python, ["-c", "import pystoi, pesq"], environment: ProcessInfo.processInfo.environment)
        if check?.status == 0 { return python }
        try RoomSynthesis.run("python3", ["-m", "venv", venv])
        guard let installed = ChildProcess.run(
            venv + "/bin/pip", ["install", "-q", "pystoi==0.4.1", "pesq==0.0.4"], environment: ProcessInfo.processInfo.environment),
            installed.status == 0
        else { throw RoomSynthesis.Failure.tool("pip could not install pystoi 0.4.1 and pesq 0.0.4 into \(venv)") }
        return python
    }

    /// Reads `clean.f32` (float32, mono, at RATE), then prints STOI, wideband PESQ and the lag
    /// taken out of each further file, one line each.
    static let scoringScript = """
        import sys
        import numpy as np
        from pystoi import stoi
        from pesq import pesq
        clean_all = np.fromfile(sys.argv[1], dtype=np.float32).astype(np.float64)
        rate = int(sys.argv[2])
        for path in sys.argv[3:]:
            other = np.fromfile(path, dtype=np.float32).astype(np.float64)
            # A denoiser's own delay (WebRTC's is a few ms) is taken out before STOI, which does not
            # align; the lag is the cross-correlation's peak within 50 ms.
            reach = rate // 20
            n = min(len(clean_all), len(other)) - reach
            lag = max(range(0, reach), key=lambda k: float(np.dot(clean_all[:n], other[k:k + n])))
            aligned = other[lag:lag + n]
            clean = clean_all[:n]
            print("%.3f %.2f %d" % (stoi(clean, aligned, rate, extended=False), pesq(rate, clean, aligned, 'wb'), lag))
        """

    /// The three clips with their silences, at −26 dBFS RMS over the speech, and the pauses the
    /// floor is measured over.
    static func cleanSpeech() throws -> (samples: [Float], pauses: [Range<Int>]) {
        let clips = EnhanceQualityBenchmark.clips
        var speech: [Float] = Array(repeating: 0, count: 2 * rate)
        var speechPower = 0.0
        var speechCount = 0
        var pauses = [rate..<(rate * 19 / 10)]
        for clip in ["0870", "0880", "0890"] {
            let samples = try VoxBenchmark.readWAV(clips + clip + ".wav").map { Float($0) / 32768 }
            speechPower += samples.reduce(0.0) { $0 + Double($1) * Double($1) }
            speechCount += samples.count
            speech += samples
            pauses.append((speech.count + rate / 4)..<(speech.count + rate * 5 / 4))
            speech += Array(repeating: 0, count: 3 * rate / 2)
        }
        let rms = (speechPower / Double(max(speechCount, 1))).squareRoot()
        let gain = Float(pow(10, -26 / 20.0) / max(rms, 1e-9))
        return (speech.map { $0 * gain }, pauses)
    }

    static func speexDSP(_ samples: [Float]) throws -> [Float] {
        let enhancer = try SpeechEnhancer(sampleRate: rate, channels: 1)
        var output: [Float] = []
        output.reserveCapacity(samples.count)
        enhancer.process(samples, into: &output)
        enhancer.finish(into: &output)
        return output
    }

    static func webRTC(_ samples: [Float], level: WebRTCNoiseSuppressor.Level) throws -> [Float] {
        let suppressor = try WebRTCNoiseSuppressor(sampleRate: rate, level: level)
        var frame = [Int16](repeating: 0, count: suppressor.frameLength)
        var output: [Float] = []
        output.reserveCapacity(samples.count)
        var index = 0
        while index + frame.count <= samples.count {
            for offset in 0..<frame.count {
                frame[offset] = Int16(max(-32768, min(32767, (samples[index + offset] * 32768).rounded())))
            }
            try frame.withUnsafeMutableBufferPointer { try suppressor.process($0) }
            output += frame.map { Float($0) / 32768 }
            index += frame.count
        }
        return output
    }

    static func writeFloats(_ samples: [Float], to path: String) throws {
        try samples.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: path))
    }
}
