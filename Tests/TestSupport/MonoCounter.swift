import Foundation
import SoundFiles

/// Mono pcm16 WAVs whose frame i holds i mod 32768: a repeated or dropped frame shows.
public enum MonoCounter {
    /// A mono pcm16 WAV whose frame i holds i mod 32768.
    public static func write(_ path: String, seconds: Double) throws {
        let frames = Int(seconds * 48_000)
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 1))
        let samples = (0..<frames).map { Int16($0 % 32_768) }
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: .int16)
        }
        try writer.close()
    }

    public static func read(_ path: String) throws -> [Int] {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        let count = Int(reader.info.frames)
        var samples = [Int16](repeating: 0, count: count)
        let read = try samples.withUnsafeMutableBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return try reader.read(into: base, frames: count, as: .int16)
        }
        return samples.prefix(read).map(Int.init)
    }

    /// Runs of consecutive counter values: [(first value, length)].
    public static func runs(_ values: [Int]) -> [(first: Int, count: Int)] {
        var runs: [(first: Int, count: Int)] = []
        for (index, value) in values.enumerated() {
            if index > 0, value == (values[index - 1] + 1) % 32_768 {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((value, 1))
            }
        }
        return runs
    }
}
