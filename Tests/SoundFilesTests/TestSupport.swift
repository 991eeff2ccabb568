import Foundation

import Testing

@testable import SoundFiles

/// Interleaved test signals: a sine per channel (440 Hz left, 660 Hz right, …) at half scale.
enum Signal {
    static func float32(frames: Int, channels: Int, sampleRate: Int, startFrame: Int = 0) -> [Float] {
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            let time = Double(frame + startFrame) / Double(sampleRate)
            for channel in 0..<channels {
                let frequency = 440.0 + 220.0 * Double(channel)
                samples[frame * channels + channel] = Float(0.5 * sin(2 * Double.pi * frequency * time))
            }
        }
        return samples
    }

    static func int16(frames: Int, channels: Int, sampleRate: Int, startFrame: Int = 0) -> [Int16] {
        float32(frames: frames, channels: channels, sampleRate: sampleRate, startFrame: startFrame)
            .map { Int16(($0 * 32767).rounded()) }
    }

    /// 24-bit values left-justified in 32 bits (low byte zero), as ALSA S32_LE delivers 24-bit audio.
    static func int32(frames: Int, channels: Int, sampleRate: Int, startFrame: Int = 0) -> [Int32] {
        float32(frames: frames, channels: channels, sampleRate: sampleRate, startFrame: startFrame)
            .map { Int32(($0 * 8_388_607).rounded()) << 8 }
    }

    static func rms(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }
}

/// Writing and reading helpers over the public API.
enum Audio {
    /// Writes `frames` frames of the test sine in `sampleFormat`, in chunks of `chunk` frames.
    static func write(
        _ writer: SoundFileWriter, frames: Int, as sampleFormat: SampleFormat, chunk: Int = 4800, startFrame: Int = 0
    ) throws {
        let channels = writer.settings.channels
        let rate = writer.settings.sampleRate
        var done = 0
        while done < frames {
            let count = min(chunk, frames - done)
            let start = startFrame + done
            switch sampleFormat {
            case .int16:
                let samples = Signal.int16(frames: count, channels: channels, sampleRate: rate, startFrame: start)
                try samples.withUnsafeBytes { try writer.write($0.start(), frames: count, sampleFormat: .int16) }
            case .int32:
                let samples = Signal.int32(frames: count, channels: channels, sampleRate: rate, startFrame: start)
                try samples.withUnsafeBytes { try writer.write($0.start(), frames: count, sampleFormat: .int32) }
            case .float32:
                let samples = Signal.float32(frames: count, channels: channels, sampleRate: rate, startFrame: start)
                try samples.withUnsafeBytes { try writer.write($0.start(), frames: count, sampleFormat: .float32) }
            }
            done += count
        }
    }

    /// Reads the whole file as `T` (Int16, Int32 or Float).
    static func readAll<T: Numeric>(_ reader: SoundFileReader, as sampleFormat: SampleFormat, _: T.Type) throws -> [T] {
        let chunk = 4096
        let channels = reader.info.channels
        var buffer = [T](repeating: 0, count: chunk * channels)
        var all: [T] = []
        while true {
            let count = try buffer.withUnsafeMutableBytes {
                try reader.read(into: $0.start(), frames: chunk, as: sampleFormat)
            }
            if count == 0 { break }
            all.append(contentsOf: buffer.prefix(count * channels))
        }
        return all
    }
}

/// An empty array has no base address; the tests never pass one.
struct EmptyBuffer: Error {}

extension UnsafeRawBufferPointer {
    func start() throws -> UnsafeRawPointer {
        guard let baseAddress else { throw EmptyBuffer() }
        return baseAddress
    }
}

extension UnsafeMutableRawBufferPointer {
    func start() throws -> UnsafeMutableRawPointer {
        guard let baseAddress else { throw EmptyBuffer() }
        return baseAddress
    }
}
