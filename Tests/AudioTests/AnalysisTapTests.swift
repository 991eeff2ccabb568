import TestSupport
import Dispatch
import Foundation
import SoundFiles
import Testing

@testable import Audio

/// The analysis tap: every frame reaches `drain` in order; a watcher that is never drained
/// drops frames rather than holding up the capture thread.
@Suite struct AnalysisTapTests {
    static let format = StreamFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)

    @Test func waitingTapSeesEveryFrameOfAnUnpacedSource() throws {
        let engine = CaptureEngine(source: try ToneSource(frequency: 440, peakDBFS: -12, format: Self.format, paced: false))
        let tap = AnalysisTap(engine: engine, seconds: 0.1)
        engine.start(frameLimit: 480_000)
        defer { engine.stop() }
        var total = 0
        try wait(for: "the engine to end its 10 s of tone and the tap to be drained (\(total) frames drained)") {
            let ended = engine.hasEnded
            let drained = tap.drain { _, _ in }
            total += drained
            return ended && drained == 0
        }
        #expect(total == 480_000, "a waiting tap (ring of 0.1 s, 10 s captured) loses nothing")
        #expect(tap.droppedFrames == 0)
    }

    @Test func droppingTapNeverDrainedDoesNotHoldUpARecording() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("analysis-tap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = CaptureEngine(source: try ToneSource(frequency: 440, peakDBFS: -12, format: Self.format, paced: false))
        let watcher = AnalysisTap(engine: engine, seconds: 0.1, overflow: .drop)
        defer { watcher.detach() }
        let path = folder.appendingPathComponent("take.wav").path
        let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 2)
        let finished = DispatchSemaphore(value: 0)
        let recorder = try Recorder(
            url: path, settings: settings, engine: engine, input: .tone(frequency: 440, peakDBFS: -12),
            eventQueue: DispatchQueue(label: "events"),
            events: RecorderEvents(didFinishRecording: { _ in finished.signal() }))
        try recorder.record(forDuration: 5)
        engine.start()
        defer { engine.stop() }
        #expect(finished.wait(timeout: .now() + 30) == .success, "the recording finishes although the watcher is never drained")
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        #expect(reader.info.frames == 240_000)
        #expect(watcher.droppedFrames > 0)
        // The ring rounds 0.1 s (19 200 bytes) up to a power of two: 32 768 bytes = 8 192 frames.
        #expect(watcher.drain { _, _ in } <= 8_192, "the watcher kept at most its ring")
    }
}
