import Foundation
import SoundFiles
import Testing
import TestSupport

@testable import Audio

/// WebRTC's echo canceller as a meeting's capture runs it, on a LibriVox clip of speech (16 kHz)
/// as the far end and its echo (0.3, 5 ms late) as the near end: the echo is cancelled in the
/// microphone's channel of joined frames handed out in any counts, the desktop's channel comes
/// out as it went in, and what the canceller refuses is a typed error.
@Suite struct EchoCancellingTests {
    static let rate = 16_000
    static let echoDelay = 80

    /// The clip as the desktop (right) and its echo as the microphone (left), as joined 16-bit
    /// frames.
    static func joinedFrames() throws -> [Int16] {
        let (_, clip) = try TestSignals.readInt16(LibriVoxClips.path(LibriVoxClips.ids[0]))
        var frames = [Int16](repeating: 0, count: 2 * clip.count)
        for index in clip.indices {
            frames[2 * index] = index >= echoDelay ? Int16((0.3 * Double(clip[index - echoDelay])).rounded()) : 0
            frames[2 * index + 1] = clip[index]
        }
        return frames
    }

    /// The frames through `JoinedEchoCancelling` as the joined source moves them (up to ten
    /// blocks at a time), handed out in reads of `readSizes` in turn.
    static func cancelled(_ frames: [Int16], readSizes: [Int]) throws -> [Int16] {
        let echo = try JoinedEchoCancelling(format: StreamFormat(sampleRate: rate, channels: 2, sampleFormat: .int16), channelsPerInput: 1)
        let count = frames.count / 2
        var output: [Int16] = []
        var read = [Int16](repeating: 0, count: 2 * (readSizes.max() ?? 1))
        var moved = 0
        var reads = 0
        while moved + echo.blockFrames <= count {
            let taking = min(count - moved, echo.capacity) / echo.blockFrames * echo.blockFrames
            frames.withUnsafeBytes { source in
                echo.staging.copyMemory(from: source.baseAddress! + moved * 4, byteCount: taking * 4)
            }
            try echo.cancel(frames: taking)
            moved += taking
            while echo.staged > 0 {
                let size = readSizes[reads % readSizes.count]
                reads += 1
                let got = read.withUnsafeMutableBytes { echo.handOut(into: $0.baseAddress!, frames: size) }
                output += read[0..<2 * got]
            }
        }
        return output
    }

    static func rmsDB(_ frames: [Int16], channel: Int, from start: Int, to end: Int) -> Double {
        var sum = 0.0
        for index in start..<end {
            let sample = Double(frames[2 * index + channel]) / 32768
            sum += sample * sample
        }
        return 10 * log10(max(sum / Double(end - start), 1e-20))
    }

    @Test func theEchoIsCancelledAndTheDesktopKeptInReadsOfAnySize() throws {
        let frames = try Self.joinedFrames()
        let output = try Self.cancelled(frames, readSizes: [1, 37, 160, 1000, 4096])
        let count = output.count / 2
        #expect(count >= frames.count / 2 - 160, "every whole block comes out: \(count) of \(frames.count / 2) frames")
        #expect(stride(from: 1, to: output.count, by: 2).allSatisfy { output[$0] == frames[$0] }, "the desktop's channel is as it went in")
        let start = 2 * Self.rate
        let before = Self.rmsDB(frames, channel: 0, from: start, to: count)
        let after = Self.rmsDB(output, channel: 0, from: start, to: count)
        #expect(before - after >= 15, "the echo is \(before - after) dB lower (from \(before) dBFS)")
    }

    /// Samples that are not finite in a float stream (NaN, ∞, in either input) are taken as
    /// silence by the canceller: the microphone's channel stays finite and the echo after them is
    /// cancelled as before (the desktop's channel passes as it came; the engine repairs it).
    @Test func samplesThatAreNotFiniteNeitherTrapNorSpoilTheCanceller() throws {
        let frames = try Self.joinedFrames()
        var floats = frames.map { Float($0) / 32768 }
        for index in stride(from: 8_000, to: 8_400, by: 7) { floats[index] = index % 2 == 0 ? .nan : .infinity }
        let echo = try JoinedEchoCancelling(
            format: StreamFormat(sampleRate: Self.rate, channels: 2, sampleFormat: .float32), channelsPerInput: 1)
        var output: [Float] = []
        var read = [Float](repeating: 0, count: 2 * echo.capacity)
        var moved = 0
        let count = floats.count / 2
        while moved + echo.capacity <= count {
            floats.withUnsafeBytes { source in
                echo.staging.copyMemory(from: source.baseAddress! + moved * 8, byteCount: echo.capacity * 8)
            }
            try echo.cancel(frames: echo.capacity)
            moved += echo.capacity
            let got = read.withUnsafeMutableBytes { echo.handOut(into: $0.baseAddress!, frames: echo.capacity) }
            output += read[0..<2 * got]
        }
        #expect(stride(from: 0, to: output.count, by: 2).allSatisfy { output[$0].isFinite }, "the microphone's channel is finite")
        let asInt16 = { (samples: [Float]) in samples.map { Int16(($0.isFinite ? $0 : 0) * 32767) } }
        let start = 2 * Self.rate
        let before = Self.rmsDB(asInt16(Array(floats.prefix(output.count))), channel: 0, from: start, to: output.count / 2)
        let after = Self.rmsDB(asInt16(output), channel: 0, from: start, to: output.count / 2)
        #expect(before - after >= 15, "the echo is \(before - after) dB lower after the bad samples (from \(before) dBFS)")
    }

    @Test func whatTheCancellerRefusesIsATypedError() throws {
        #expect(throws: EchoCancellerError.unsupportedSampleRate(22050)) { try WebRTCEchoCanceller(sampleRate: 22050, channels: 1) }
        #expect(throws: EchoCancellerError.unsupportedSampleRate(4000)) { try WebRTCEchoCanceller(sampleRate: 4000, channels: 1) }
        #expect(throws: EchoCancellerError.unsupportedChannels(3)) { try WebRTCEchoCanceller(sampleRate: 48000, channels: 3) }
        let canceller = try WebRTCEchoCanceller(sampleRate: 44100, channels: 2)
        #expect(canceller.blockFrames == 441)
        let far = [Float](repeating: 0, count: 200)
        var near = [Float](repeating: 0, count: 200)
        #expect(throws: EchoCancellerError.wrongBlockLength(got: 100, expected: 441)) {
            try far.withUnsafeBufferPointer { far in
                try near.withUnsafeMutableBufferPointer { try canceller.process(farEnd: far, nearEnd: $0) }
            }
        }
        #expect(EchoCancellerError.unsupportedSampleRate(22050).description.contains("at 22050 Hz are not a whole number of frames"))
    }
}
