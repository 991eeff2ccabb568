import TestSupport
import Dispatch
import Foundation
import SoundFiles
import Testing

@testable import Audio

/// A recorder attached to an engine its owner runs, in real time (the app's way: one open input,
/// successive memos recorded from it, the meter never interrupted).
@Suite struct RecorderAttachedTests {
    static let format = StreamFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)
    static let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 2)
    static let tone = InputSource.tone(frequency: 440, peakDBFS: -12)

    @Test func stopFinalisesTheFileAndLeavesTheEngineRunning() throws {
        let directory = try TemporaryDirectory(prefix: "recorder-attached")
        let folder = directory.url
        let engine = CaptureEngine(source: try ToneSource(frequency: 440, peakDBFS: -12, format: Self.format, paced: true))
        engine.start()
        defer { engine.stop() }

        var paths: [String] = []
        for take in 0..<2 {
            let path = folder.appendingPathComponent("take\(take).wav").path
            let recorder = try Recorder(
                url: path, settings: Self.settings, engine: engine, input: Self.tone, eventQueue: DispatchQueue(label: "events"))
            try recorder.record()
            Thread.sleep(forTimeInterval: 0.3)
            recorder.pause()
            let pausedAt = recorder.recordedFrames
            Thread.sleep(forTimeInterval: 0.1)
            #expect(recorder.recordedFrames == pausedAt, "a pause sends nothing to the file")
            try recorder.record()
            Thread.sleep(forTimeInterval: 0.1)
            recorder.stop()
            #expect(recorder.hasFinished)
            let reader = try SoundFileReader(path: path)
            defer { reader.close() }
            #expect(reader.info.frames == Int64(recorder.recordedFrames))
            #expect(recorder.recordedFrames > 48_000 / 10 * 3)
            paths.append(path)
        }
        let before = engine.capturedFrames
        Thread.sleep(forTimeInterval: 0.1)
        #expect(engine.capturedFrames > before, "the engine keeps capturing after its recorders stopped")
        #expect(!engine.hasEnded)
        engine.updateMeters()
        #expect(engine.peakPower(forChannel: 0) > -13)
    }

    /// The capture thread reads straight into a recording's ring; a recorder stopped and
    /// released meanwhile must not take that memory away under the read (it did: the app
    /// crashed with SIGSEGV on `s` now and then). An unpaced engine reads all the time, so
    /// each of these stops lands in the middle of a read.
    @Test func recordersStoppedAndReleasedWhileTheEngineReadsIntoThem() throws {
        let directory = try TemporaryDirectory(prefix: "recorder-attached")
        let folder = directory.url
        let engine = CaptureEngine(source: try ToneSource(frequency: 440, peakDBFS: -12, format: Self.format, paced: false))
        engine.start()
        defer { engine.stop() }
        for take in 0..<300 {
            let path = folder.appendingPathComponent("take\(take).wav").path
            do {
                let recorder = try Recorder(
                    url: path, settings: Self.settings, engine: engine, input: Self.tone, eventQueue: DispatchQueue(label: "events"))
                try recorder.record()
                Thread.sleep(forTimeInterval: 0.002)
                recorder.stop()
                #expect(recorder.hasFinished)
            }
            try? FileManager.default.removeItem(atPath: path)
        }
        #expect(!engine.hasEnded, "the engine is still capturing")
    }
}
