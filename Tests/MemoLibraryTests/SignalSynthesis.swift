import TestSupport
import Foundation
import SoundFiles

/// Seeded test signals for the statistics tests, and writing them as real sound files.
enum SignalSynthesis {
    typealias Signal = StatisticsAgainstTheOldMetersTests.Signal

    /// A sine in every channel (each a little later in phase), peaking at `dBFS`.
    static func tone(rate: Int, channels: Int, frequency: Double, dBFS: Double, seconds: Double) -> Signal {
        let amplitude = pow(10, dBFS / 20)
        return make("tone", rate, channels, seconds) { frame, channel, _ in
            amplitude * sin(2 * .pi * frequency * Double(frame) / Double(rate) + 0.3 * Double(channel))
        }
    }

    /// Gaussian white noise at an RMS of `dBFS`, independent per channel.
    static func noise(rate: Int, channels: Int, dBFS: Double, seconds: Double, seed: UInt64) -> Signal {
        var random = SeededRandom(seed: seed)
        let rms = pow(10, dBFS / 20)
        return make("noise", rate, channels, seconds) { _, _, _ in rms * random.gaussian() }
    }

    /// The record benchmark's device noise: uniform 0…4095 of 32768, all positive (a DC offset).
    static func offsetNoise(rate: Int, channels: Int, seconds: Double, seed: UInt64) -> Signal {
        var generator = SplitMix64(seed: seed)
        return make("offset noise", rate, channels, seconds) { _, _, _ in
            Double(generator.next() >> 52) / 32768
        }
    }

    /// Something like speech: phrases of 3–8 syllables (voiced, 12 harmonics of a gliding
    /// 100–220 Hz fundamental, a sin² envelope each), phrase levels from −30 to −8 dBFS, pauses
    /// of 0.2–0.9 s, and room noise at −65 dBFS; later channels a little quieter.
    static func speechLike(rate: Int, channels: Int, seconds: Double, seed: UInt64) -> Signal {
        var random = SeededRandom(seed: seed)
        let frames = Int(seconds * Double(rate))
        var voice = [Double](repeating: 0, count: frames)
        var position = Int(0.1 * Double(rate))
        while position < frames {
            let level = pow(10, random.uniform(-30, -8) / 20)
            for _ in 0..<Int(random.uniform(3, 9)) {
                let length = Int(random.uniform(0.12, 0.3) * Double(rate))
                let pitch = random.uniform(100, 220)
                let glide = random.uniform(-0.2, 0.2)
                var phase = 0.0
                for offset in 0..<length where position + offset < frames {
                    let progress = Double(offset) / Double(length)
                    phase += 2 * .pi * pitch * (1 + glide * progress) / Double(rate)
                    var value = 0.0
                    for harmonic in 1...12 {
                        let formant = harmonic == 3 || harmonic == 7 ? 2.0 : 1.0
                        value += formant / Double(harmonic) * sin(Double(harmonic) * phase)
                    }
                    let envelope = sin(.pi * progress) * sin(.pi * progress)
                    voice[position + offset] = 0.3 * level * envelope * value
                }
                position += length
            }
            position += Int(random.uniform(0.2, 0.9) * Double(rate))
        }
        let room = pow(10, -65 / 20.0)
        return make("speech-like", rate, channels, seconds) { frame, channel, _ in
            voice[frame] * (1 - 0.2 * Double(channel)) + room * random.gaussian()
        }
    }

    /// A 200 Hz sine driven 6 dB over full scale and clipped (runs of full-scale samples) in
    /// the first channel, unclipped at −6 dBFS in the others.
    static func clipped(rate: Int, channels: Int, seconds: Double) -> Signal {
        make("clipped", rate, channels, seconds) { frame, channel, _ in
            let value = sin(2 * .pi * 200 * Double(frame) / Double(rate))
            return channel == 0 ? min(max(2 * value, -1), 1) : 0.5 * value
        }
    }

    /// A quarter-rate sine at 45° (every sample at ±0.707 of a crest at full scale: the true
    /// peak is 3 dB above the sample peak) for the first half, then a −20 dBFS 440 Hz tone.
    static func interSamplePeaks(rate: Int, channels: Int, seconds: Double) -> Signal {
        let half = Int(seconds * Double(rate)) / 2
        return make("inter-sample peaks", rate, channels, seconds) { frame, _, _ in
            frame < half
                ? sin(.pi / 2 * Double(frame) + .pi / 4)
                : 0.1 * sin(2 * .pi * 440 * Double(frame) / Double(rate))
        }
    }

    /// One second of tone and noise peaking near −1 dBFS, then quiet speech-like audio.
    static func loudThenQuiet(rate: Int, channels: Int, seconds: Double) -> Signal {
        let quiet = speechLike(rate: rate, channels: channels, seconds: seconds, seed: 11)
        var random = SeededRandom(seed: 12)
        return make("loud then quiet", rate, channels, seconds) { frame, channel, index in
            guard frame < rate else { return 0.2 * quiet.samples[index] }
            return 0.8 * sin(2 * .pi * 997 * Double(frame) / Double(rate)) + 0.05 * random.gaussian()
        }
    }

    private static func make(
        _ name: String, _ rate: Int, _ channels: Int, _ seconds: Double,
        _ value: (_ frame: Int, _ channel: Int, _ index: Int) -> Double
    ) -> Signal {
        let frames = Int(seconds * Double(rate))
        var samples = [Double](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                samples[frame * channels + channel] = value(frame, channel, frame * channels + channel)
            }
        }
        return Signal(name: name, rate: rate, channels: channels, samples: samples)
    }

    /// The signal as Float samples (full scale 1.0).
    static func floats(_ signal: Signal) -> [Float] {
        signal.samples.map { Float($0) }
    }

    /// Writes the signal in `settings`' own sample width: 16-bit from ±32768 (full-scale values
    /// become 32767 and −32768), 24-bit left-justified in 32 bits, or Float as it is.
    static func write(_ signal: Signal, to path: String, settings: RecordingSettings) throws {
        let writer = try SoundFileWriter(path: path, settings: settings)
        let frames = signal.samples.count / signal.channels
        switch settings.preferredSampleFormat {
        case .int16:
            let samples = signal.samples.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
            try write(samples, frames: frames, as: .int16, to: writer)
        case .int32:
            let samples = signal.samples.map { Int32(max(-8_388_608, min(8_388_607, ($0 * 8_388_608).rounded()))) << 8 }
            try write(samples, frames: frames, as: .int32, to: writer)
        case .float32:
            try write(floats(signal), frames: frames, as: .float32, to: writer)
        }
        try writer.close()
    }

    private static func write<Sample>(_ samples: [Sample], frames: Int, as format: SampleFormat, to writer: SoundFileWriter) throws {
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: format)
        }
    }
}
