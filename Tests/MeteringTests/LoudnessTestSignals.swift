import Glibc

@testable import Metering

/// Signals of EBU Tech 3341 and 3342, synthesised: sines whose level is each channel's peak.
enum LoudnessTestSignals {
    /// A stretch of a test signal: `seconds` of a sine whose peak is `level` dBFS (nil: silence).
    struct Segment {
        var level: Double?
        var seconds: Double
    }

    /// Interleaved Float frames of 1 kHz sines (the same on every channel listed in `channels`,
    /// silence on the others), segment after segment with continuous phase.
    static func sines(
        _ segments: [Segment], sampleRate: Int, channels: Int = 2, soundingChannels: Set<Int>? = nil,
        frequency: Double = 1000
    ) -> [Float] {
        let sounding = soundingChannels ?? Set(0..<channels)
        let totalFrames = segments.reduce(0) { $0 + Int(($1.seconds * Double(sampleRate)).rounded()) }
        var samples = [Float](repeating: 0, count: totalFrames * channels)
        var frame = 0
        for segment in segments {
            let frames = Int((segment.seconds * Double(sampleRate)).rounded())
            if let level = segment.level {
                let amplitude = pow(10, level / 20)
                for index in frame..<(frame + frames) {
                    let value = Float(amplitude * sin(2 * Double.pi * frequency * Double(index) / Double(sampleRate)))
                    for channel in sounding { samples[index * channels + channel] = value }
                }
            }
            frame += frames
        }
        return samples
    }

    /// Interleaved Float frames of a sine at `frequency` = rate/`period`, amplitude `amplitude`,
    /// starting at `phaseDegrees`, on every channel.
    ///
    /// The first `fadeInFrames` frames rise along a raised cosine: a sine switched on at full
    /// amplitude is a step, whose band-limited reconstruction really does overshoot the sine's
    /// crest (by 0.1 dB for an fs/4 sine at 45°), and a true-peak meter rightly reports that.
    static func sine(
        amplitude: Double, period: Double, phaseDegrees: Double, frames: Int, channels: Int = 2,
        fadeInFrames: Int = 480
    ) -> [Float] {
        var samples = [Float](repeating: 0, count: frames * channels)
        let phase = phaseDegrees * Double.pi / 180
        for frame in 0..<frames {
            let fade = frame < fadeInFrames ? 0.5 - 0.5 * cos(Double.pi * Double(frame) / Double(fadeInFrames)) : 1
            let value = Float(fade * amplitude * sin(2 * Double.pi * Double(frame) / period + phase))
            for channel in 0..<channels { samples[frame * channels + channel] = value }
        }
        return samples
    }
}

extension LoudnessMeter {
    /// Consumes `samples` in buffers of `bufferSize` samples (the last may be shorter).
    mutating func consume(_ samples: [Float], bufferSize: Int = 4_800) {
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + bufferSize)
            samples[start..<end].withUnsafeBufferPointer { consume($0) }
            start = end
        }
    }

    /// A meter that has consumed `samples`.
    static func measuring(_ samples: [Float], channels: Int = 2, sampleRate: Int) -> LoudnessMeter {
        var meter = LoudnessMeter(channels: channels, sampleRate: sampleRate)
        meter.consume(samples)
        return meter
    }
}

extension TruePeakMeter {
    /// Consumes `samples` in buffers of `bufferSize` samples (the last may be shorter).
    mutating func consume(_ samples: [Float], bufferSize: Int = 4_800) {
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + bufferSize)
            samples[start..<end].withUnsafeBufferPointer { consume($0) }
            start = end
        }
    }
}

/// The sample rates every loudness test runs at.
let loudnessTestRates = [44_100, 48_000, 96_000]
