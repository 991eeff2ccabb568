import Audio
import SoundFiles
import Testing
import Transcription

/// The capture side of live captions: a full ring marks the tap as fallen behind at once,
/// and the producer (the capture thread) never waits for the recogniser.
@Suite struct CaptionTapTests {
    static let format = StreamFormat(sampleRate: 16_000, channels: 1, sampleFormat: .int16)

    @Test func aFullBufferFallsBehindInsteadOfBlockingTheProducer() {
        let tap = CaptionTap(format: Self.format, seconds: 0.1)
        let chunk = [Int16](repeating: 1000, count: 800)
        var accepted = 0
        // Ten chunks of 50 ms into a ring of about 0.1 s, nobody draining: each call returns.
        for _ in 0..<10 {
            let wasBehind = tap.hasFallenBehind
            chunk.withUnsafeBytes { tap.capture($0.baseAddress!, frames: chunk.count, firstFrame: 0) }
            if !wasBehind, !tap.hasFallenBehind { accepted += chunk.count }
        }
        #expect(tap.hasFallenBehind)
        #expect(accepted >= 1600 && accepted < 8000, "\(accepted) frames fitted")
        // What fitted before it fell behind is still there, and nothing after it.
        let drained = tap.drain { _, _ in }
        #expect(drained == accepted)
        chunk.withUnsafeBytes { tap.capture($0.baseAddress!, frames: chunk.count, firstFrame: 0) }
        #expect(tap.drain { _, _ in } == 0, "once behind, the tap ignores every chunk")
    }

    @Test func aDrainedBufferNeverFallsBehind() {
        let tap = CaptionTap(format: Self.format, seconds: 0.1)
        let chunk = (0..<800).map { Int16(truncatingIfNeeded: $0 * 37) }
        var total = 0
        var firstSample: Int16?
        for _ in 0..<100 {
            chunk.withUnsafeBytes { tap.capture($0.baseAddress!, frames: chunk.count, firstFrame: 0) }
            total += tap.drain { buffer, frames in
                if firstSample == nil { firstSample = buffer.load(as: Int16.self) }
            }
        }
        #expect(!tap.hasFallenBehind)
        #expect(total == 80_000)
        #expect(firstSample == 0)
    }
}
