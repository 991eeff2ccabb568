import Foundation
import Glibc
import SoundFiles

/// The tests' signals: tones built in `Double` and quantised to each sample format (for the
/// meters), and files of noise and sines (for what records, plays and analyses them).
public enum TestSignals {
    /// One channel's content: a sine of `period` samples whose peak is `level` dBFS.
    public struct Tone {
        public var level: Double
        public var period: Int

        public init(level: Double, period: Int) {
            self.level = level
            self.period = period
        }

        /// Amplitude with 1.0 = full scale.
        public var amplitude: Double { pow(10, level / 20) }

        /// Sample `frame`; a period divisible by 4 puts a sample exactly on each crest.
        public func value(frame: Int) -> Double {
            amplitude * sin(2 * Double.pi * Double(frame % period) / Double(period))
        }
    }

    /// `frames` frames of one tone per channel, interleaved, 1.0 = full scale.
    public static func interleaved(_ tones: [Tone], frames: Int) -> [Double] {
        var samples: [Double] = []
        samples.reserveCapacity(frames * tones.count)
        for frame in 0..<frames {
            for tone in tones { samples.append(tone.value(frame: frame)) }
        }
        return samples
    }

    public static func int16(_ samples: [Double]) -> [Int16] {
        samples.map { Int16(clamping: Int(($0 * 32768).rounded())) }
    }

    /// 24-bit values left-justified in 32 bits, as ALSA S32_LE delivers a 24-bit converter.
    public static func int32(_ samples: [Double]) -> [Int32] {
        samples.map { Int32(min(max(Int(($0 * 8_388_608).rounded()), -8_388_608), 8_388_607)) << 8 }
    }

    public static func float(_ samples: [Double]) -> [Float] {
        samples.map { Float($0) }
    }

    /// Deterministic white noise, raw S16_LE interleaved.
    public static func writeRawNoise(to path: String, frames: Int, channels: Int = 2, seed: UInt64 = 0x5EED) throws {
        var generator = SplitMix64(seed: seed)
        var data = Data(count: frames * channels * 2)
        data.withUnsafeMutableBytes { raw in
            let samples = raw.bindMemory(to: Int16.self)
            for index in samples.indices {
                samples[index] = Int16(truncatingIfNeeded: generator.next() >> 48).littleEndian
            }
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// A float WAV with a 1 kHz sine per channel at the given peak levels (dBFS; nil = silence),
    /// and a full-scale sample (+1, −1 alternately) on every channel at each of `fullScaleFrames`.
    public static func writeSines(
        to path: String, levels: [Double?], seconds: Double = 1, sampleRate: Int = 48000, fullScaleFrames: [Int] = []
    ) throws {
        try writeSines(to: path, sections: [(seconds, levels)], sampleRate: sampleRate, fullScaleFrames: fullScaleFrames)
    }

    /// A float WAV made of sections, each `(seconds, levels)` as `writeSines(to:levels:)`
    /// has them; every section has as many levels as the first (the channel count).
    public static func writeSines(
        to path: String, sections: [(Double, [Double?])], sampleRate: Int = 48000, fullScaleFrames: [Int] = []
    ) throws {
        let channels = sections.first?.1.count ?? 1
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, encoding: .float, sampleRate: sampleRate, channels: channels))
        var samples: [Float] = []
        var frames = 0
        for (seconds, levels) in sections {
            for _ in 0..<Int(seconds * Double(sampleRate)) {
                let phase = 2 * Double.pi * 1000 * Double(frames) / Double(sampleRate)
                for level in levels { samples.append(level.map { Float(pow(10, $0 / 20) * sin(phase)) } ?? 0) }
                frames += 1
            }
        }
        for (number, frame) in fullScaleFrames.enumerated() {
            for channel in 0..<channels { samples[frame * channels + channel] = number.isMultiple(of: 2) ? 1 : -1 }
        }
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: .float32)
        }
        try writer.close()
    }

    /// A pcm16 mono WAV of `seconds` whose frame `n` is `sample(n)` (−1 to 1).
    public static func writeMonoWAV(
        to path: String, seconds: Double, sampleRate: Int = 48000, sample: (Int) -> Double
    ) throws {
        let frames = Int(seconds * Double(sampleRate))
        let samples = (0..<frames).map { Int16(clamping: Int((sample($0) * 32767).rounded())) }
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: sampleRate, channels: 1))
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: .int16)
        }
        try writer.close()
    }

    /// Reads a whole file, to its end, as interleaved Int16.
    public static func readInt16(_ path: String) throws -> (info: SoundFileInfo, samples: [Int16]) {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        var samples: [Int16] = []
        var chunk = [Int16](repeating: 0, count: 4096 * reader.info.channels)
        while true {
            let got = try chunk.withUnsafeMutableBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return try reader.read(into: base, frames: 4096, as: .int16)
            }
            if got == 0 { break }
            samples += chunk[0..<got * reader.info.channels]
        }
        return (reader.info, samples)
    }

    /// A pcm16 stereo WAV: `leadIn` seconds of silence, then seeded white noise at about
    /// −12 dBFS peak, different in each channel — a signal no other test plays.
    public static func writeNoiseWAV(to path: String, seconds: Double, leadIn: Double = 0.25, seed: UInt64 = 0xC0FFEE) throws {
        let rate = 48_000
        let silent = Int(leadIn * Double(rate))
        let frames = silent + Int(seconds * Double(rate))
        var samples = [Int16](repeating: 0, count: frames * 2)
        var generator = SplitMix64(seed: seed)
        for index in (silent * 2)..<samples.count {
            samples[index] = Int16(truncatingIfNeeded: generator.next() >> 48) >> 2
        }
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: rate, channels: 2))
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: .int16)
        }
        try writer.close()
    }
}
