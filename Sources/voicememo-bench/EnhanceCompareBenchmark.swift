import Foundation
import SoundFiles
import SpeechEnhancement
import VoiceActivation

/// SpeexDSP's denoiser (`SpeechEnhancer`, what `enhance` uses) beside WebRTC's noise
/// suppression (`WebRTCNoiseSuppressor`, level high) on read speech in noise, scored by STOI
/// (`pystoi` 0.4.1) and wideband PESQ (`pesq` 0.0.4, ITU-T P.862.2) against the clean speech.
///
/// The speech: three of pocketsphinx-testdata's LibriVox clips (15.4 s), 2 s of silence before
/// them and 1.5 s after each, at 16 kHz, RMS −26 dBFS over the speech; the noise seeded white,
/// pink and brown (`NoiseGenerator`) at −26 − SNR dBFS RMS. Both denoisers run in this process
/// on the same samples; each output's own delay is taken out before STOI (PESQ aligns by itself);
/// the scores come from a Python virtual environment of the benchmark's own
/// (`.build/bench-venv`, made with `python3 -m venv` and pip when missing; never the product's).
struct EnhanceCompareBenchmark {
    static let rate = 16_000
    static let snrs = [0, 5, 10, 20]

    func run() {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let venv = executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("bench-venv").path
        let work = NSTemporaryDirectory() + "voicememo-bench-enhance-compare-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: work) }
            let python = try Self.scoringPython(venv: venv)
            let clean = try Self.cleanSpeech()
            try Self.writeFloats(clean, to: work + "/clean.f32")
            let script = work + "/score.py"
            try Self.scoringScript.write(toFile: script, atomically: true, encoding: .utf8)
            print("enhance-compare: LibriVox speech (15.4 s) in noise, 16 kHz; STOI (0…1) and wideband PESQ (1…4.6) against the clean speech")
            print("| noise | SNR (dB) | STOI noisy | STOI SpeexDSP | STOI WebRTC | PESQ noisy | PESQ SpeexDSP | PESQ WebRTC |")
            print("|---|---|---|---|---|---|---|---|")
            var delays: [String] = []
            var speexTime = 0.0
            var webRTCTime = 0.0
            for noise in [RoomSynthesis.Noise.white, .pink, .brown] {
                for snr in Self.snrs {
                    var generator = NoiseGenerator(seed: 1)
                    let room = generator.noise(noise, count: clean.count, rmsDBFS: -26 - Double(snr))
                    let noisy = zip(clean, room).map { $0 + $1 }
                    let clock = ContinuousClock()
                    var start = clock.now
                    let speex = try Self.speexDSP(noisy)
                    speexTime += Self.seconds(clock.now - start)
                    start = clock.now
                    let webRTC = try Self.webRTC(noisy)
                    webRTCTime += Self.seconds(clock.now - start)
                    var scores: [String] = []
                    for (name, samples) in [("noisy", noisy), ("speex", speex), ("webrtc", webRTC)] {
                        let path = work + "/\(name).f32"
                        try Self.writeFloats(samples, to: path)
                        let output = work + "/score.txt"
                        guard let result = ChildProcess.run(
                            python, [script, work + "/clean.f32", path, String(Self.rate)],
                            environment: ProcessInfo.processInfo.environment, output: output), result.status == 0
                        else { throw RoomSynthesis.Failure.tool("scoring \(name) failed (\(python) \(script))") }
                        scores.append(try String(contentsOfFile: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
                    }
                    let fields = scores.map { $0.split(separator: " ").map(String.init) }
                    let stoi = fields.map { $0.first ?? "?" }
                    let pesq = fields.map { $0.count > 1 ? $0[1] : "?" }
                    delays = fields.map { $0.count > 2 ? $0[2] : "?" }
                    print("| \(noise.rawValue) | \(snr) | \(stoi.joined(separator: " | ")) | \(pesq.joined(separator: " | ")) |")
                }
            }
            let audio = Double(clean.count) / Double(Self.rate) * Double(3 * Self.snrs.count)
            print("")
            print("delay taken out before STOI, in samples (noisy, SpeexDSP, WebRTC): \(delays.joined(separator: ", "))")
            print(String(format: "time for %.0f s of audio: SpeexDSP %.2f s, WebRTC %.2f s (this build)", audio, speexTime, webRTCTime))
        } catch {
            printToStandardError("voicememo-bench enhance-compare: \(error)")
            exit(1)
        }
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

    /// Reads `clean.f32` and `other.f32` (float32, mono, at RATE) and prints STOI and wideband PESQ.
    static let scoringScript = """
        import sys
        import numpy as np
        from pystoi import stoi
        from pesq import pesq
        clean = np.fromfile(sys.argv[1], dtype=np.float32).astype(np.float64)
        other = np.fromfile(sys.argv[2], dtype=np.float32).astype(np.float64)
        rate = int(sys.argv[3])
        # A denoiser's own delay (WebRTC's is a few ms) is taken out before STOI, which does not
        # align; the lag is the cross-correlation's peak within 50 ms.
        reach = rate // 20
        n = min(len(clean), len(other)) - reach
        lags = range(0, reach)
        lag = max(lags, key=lambda k: float(np.dot(clean[:n], other[k:k + n])))
        other = other[lag:lag + n]
        clean = clean[:n]
        print("%.3f %.2f %d" % (stoi(clean, other, rate, extended=False), pesq(rate, clean, other, 'wb'), lag))
        """

    /// The three clips with their silences, at −26 dBFS RMS over the speech.
    static func cleanSpeech() throws -> [Float] {
        let clips = EnhanceQualityBenchmark.clips
        var speech: [Float] = Array(repeating: 0, count: 2 * rate)
        var speechPower = 0.0
        var speechCount = 0
        for clip in ["0870", "0880", "0890"] {
            let samples = try VoxBenchmark.readWAV(clips + clip + ".wav").map { Float($0) / 32768 }
            speechPower += samples.reduce(0.0) { $0 + Double($1) * Double($1) }
            speechCount += samples.count
            speech += samples
            speech += Array(repeating: 0, count: 3 * rate / 2)
        }
        let rms = (speechPower / Double(max(speechCount, 1))).squareRoot()
        let gain = Float(pow(10, -26 / 20.0) / max(rms, 1e-9))
        return speech.map { $0 * gain }
    }

    static func speexDSP(_ samples: [Float]) throws -> [Float] {
        let enhancer = try SpeechEnhancer(sampleRate: rate, channels: 1)
        var output: [Float] = []
        output.reserveCapacity(samples.count)
        enhancer.process(samples, into: &output)
        enhancer.finish(into: &output)
        return output
    }

    static func webRTC(_ samples: [Float]) throws -> [Float] {
        let suppressor = try WebRTCNoiseSuppressor(sampleRate: rate, level: .high)
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
