import Foundation
import Testing

@testable import Audio

/// SoundTouch through `TimeStretcher`: a tone keeps its pitch at another speed, and keeps its
/// length at another pitch.
@Suite struct TimeStretcherTests {
    static let rate = 48_000

    /// A stereo sine of `seconds`, interleaved.
    static func tone(_ frequency: Double, seconds: Double) -> [Float] {
        let frames = Int(seconds * Double(rate))
        var samples = [Float](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let value = Float(0.5 * sin(2 * .pi * frequency * Double(frame) / Double(rate)))
            samples[frame * 2] = value
            samples[frame * 2 + 1] = value
        }
        return samples
    }

    /// Runs `input` through in 20 ms pieces (as the playback loop does), then flushes.
    static func process(_ input: [Float], tempo: Double = 1, pitch: Double = 0) throws -> [Float] {
        let stretcher = try TimeStretcher(channels: 2, sampleRate: rate)
        try stretcher.setTempo(tempo)
        try stretcher.setPitch(semitones: pitch)
        var output: [Float] = []
        var buffer = [Float](repeating: 0, count: 8192 * 2)
        let piece = rate / 50
        var frame = 0
        func drain() {
            while true {
                let got = buffer.withUnsafeMutableBufferPointer { stretcher.receive(into: $0.baseAddress!, maxFrames: 8192) }
                if got == 0 { break }
                output += buffer[0..<(got * 2)]
            }
        }
        while frame < input.count / 2 {
            let count = min(piece, input.count / 2 - frame)
            input.withUnsafeBufferPointer { stretcher.put($0.baseAddress! + frame * 2, frames: count) }
            frame += count
            drain()
        }
        stretcher.flush()
        drain()
        return output
    }

    /// The frequency of the left channel's middle second, from its rising zero crossings.
    static func frequency(_ samples: [Float]) -> Double {
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let middle = left.count / 2
        let window = left[(middle - rate / 2)..<(middle + rate / 2)]
        var crossings: [Int] = []
        var previous = window.first ?? 0
        for (index, value) in zip(window.indices, window) {
            if previous < 0, value >= 0 { crossings.append(index) }
            previous = value
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * Double(rate) / Double(last - first)
    }

    @Test(arguments: [0.5, 1.5, 2.0, 3.0])
    func speedChangesTheLengthAndKeepsThePitch(tempo: Double) throws {
        let input = Self.tone(440, seconds: 6)
        let output = try Self.process(input, tempo: tempo)
        let seconds = Double(output.count / 2) / Double(Self.rate)
        #expect(abs(seconds - 6 / tempo) < 0.1, "\(seconds) s at \(tempo)×")
        #expect(abs(Self.frequency(output) - 440) < 2, "pitch kept at \(tempo)×: \(Self.frequency(output)) Hz")
    }

    @Test(arguments: [(12.0, 880.0), (-12.0, 220.0), (7.0, 659.26)])
    func pitchChangesTheFrequencyAndKeepsTheLength(semitones: Double, expected: Double) throws {
        let output = try Self.process(Self.tone(440, seconds: 4), pitch: semitones)
        let seconds = Double(output.count / 2) / Double(Self.rate)
        #expect(abs(seconds - 4) < 0.1, "\(seconds) s")
        #expect(abs(Self.frequency(output) - expected) < expected * 0.01, "\(Self.frequency(output)) Hz for \(semitones) semitones")
    }

    @Test func settingsOutsideTheRangesAreRefused() throws {
        let stretcher = try TimeStretcher(channels: 2, sampleRate: Self.rate)
        for tempo in [0.49, 3.01, 0, -1, .nan, .infinity] {
            #expect(throws: TimeStretchError.self) {
                try stretcher.setTempo(tempo)
            }
        }
        #expect(throws: TimeStretchError.self) { try stretcher.setPitch(semitones: 12.5) }
        #expect(throws: TimeStretchError.self) { try stretcher.setPitch(semitones: .nan) }
        #expect(stretcher.isIdentity, "refused settings change nothing")
        #expect(throws: TimeStretchError.self) { _ = try TimeStretcher(channels: 0, sampleRate: 48000) }
        #expect(throws: TimeStretchError.self) { _ = try TimeStretcher(channels: 33, sampleRate: 48000) }
        #expect(throws: TimeStretchError.self) { _ = try TimeStretcher(channels: 2, sampleRate: 1000) }
    }

    /// The play head is the input put in less what is still inside, so that count must be
    /// right to within SoundTouch's overlap window (≈ 40 ms at 48 kHz).
    @Test(arguments: [0.5, 1.0, 2.0])
    func whatIsInsideIsCountedInInputFrames(tempo: Double) throws {
        let stretcher = try TimeStretcher(channels: 2, sampleRate: Self.rate)
        try stretcher.setTempo(tempo)
        try stretcher.setPitch(semitones: tempo == 1 ? 3 : 0)
        let input = Self.tone(440, seconds: 1)
        input.withUnsafeBufferPointer { stretcher.put($0.baseAddress!, frames: Self.rate) }
        let inside = stretcher.bufferedInputFrames
        #expect(inside > 0 && inside <= Self.rate + Self.rate / 25, "\(inside) frames of \(Self.rate) at \(tempo)×")
        // Take out half of what is ready: the count goes down by that much, in input frames.
        var buffer = [Float](repeating: 0, count: Self.rate * 2)
        let taken = buffer.withUnsafeMutableBufferPointer { stretcher.receive(into: $0.baseAddress!, maxFrames: Self.rate / 8) }
        #expect(taken > 0)
        let expected = Double(inside) - Double(taken) * tempo
        #expect(abs(Double(stretcher.bufferedInputFrames) - expected) <= 2, "\(stretcher.bufferedInputFrames) vs \(expected)")
        stretcher.clear()
        #expect(stretcher.bufferedInputFrames == 0)
    }
}
