import Foundation
import Transcription

extension TranscribeBenchmark {
    /// The sounds of the noise memos: sox's noises at `vol 0.05` (about −33 to −40 dBFS RMS), and
    /// digital silence.
    static let noises: [(name: String, soxArguments: [String])] = [
        ("pink noise", ["pinknoise", "vol", "0.05"]),
        ("brown noise", ["brownnoise", "vol", "0.05"]),
        ("white noise", ["whitenoise", "vol", "0.05"]),
        ("silence", ["sine", "0", "vol", "0"]),
    ]
    /// CPU seconds a 10-minute memo of noise may cost.
    static let noiseGoalPerTenMinutes = 10.0

    /// `noiseMinutes` of each noise as a 48 kHz stereo FLAC memo (sox), transcribed once: the
    /// CPU, how much of it reached the recogniser, and the words found in it.
    func noiseMemos(transcriber: Transcriber) {
        let folder = NSTemporaryDirectory() + "/voicememo-bench-noise-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let goal = Self.noiseGoalPerTenMinutes * Double(noiseMinutes) / 10
        for noise in Self.noises {
            let path = folder + "/noise.flac"
            let arguments = ["-n", "-r", "48000", "-c", "2", path, "synth", String(noiseMinutes * 60)] + noise.soxArguments
            guard ChildProcess.run("/usr/bin/sox", arguments, environment: [:])?.status == 0 else {
                print("noise memos: needs sox")
                return
            }
            let before = Self.cpuSeconds()
            guard let result = try? transcriber.transcribe(path: path) else {
                print("\(noise.name): transcription failed")
                continue
            }
            let cpu = Self.cpuSeconds() - before
            print(String(format: "%@ (%d min, 48 kHz stereo FLAC): %.1f CPU s (goal ≤ %.1f: %@); %.1f of %.1f s decoded, %d words",
                noise.name, noiseMinutes, cpu, goal, cpu <= goal ? "PASS" : "MISS", result.decodedDuration,
                result.audioDuration, result.words.count))
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
