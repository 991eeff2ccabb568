import TestSupport
import Audio
import Dispatch
import Foundation
import SoundFiles
import Synchronization
import Testing

@Suite struct CaptureEngineTests {
    @Test func clipsAreCountedPerSnapshotAndQuietInputHasNone() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let path = directory.file("square.wav")
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 2))
        // Left: a full-scale square (runs of 24 full-scale samples); right: a quiet square.
        let samples = (0..<48_000).flatMap { frame -> [Int16] in
            let high = (frame / 24) % 2 == 0
            return [high ? Int16.max : -Int16.max, high ? 1000 : -1000]
        }
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: 48_000, sampleFormat: .int16)
        }
        try writer.close()

        let engine = CaptureEngine(source: try FileSource(path: path, sampleFormat: .int16, paced: false))
        engine.start()
        try wait(for: "the engine to capture the whole 1 s square wave", polling: .milliseconds(10)) { engine.hasEnded }
        engine.updateMeters()
        engine.stop()
        #expect(engine.capturedFrames == 48_000)
        #expect(engine.clipCounts == [1, 0])
        #expect(engine.totalClipCount == 1)
        #expect(engine.peakPower(forChannel: 0) > -0.01)
        #expect(abs(engine.peakPower(forChannel: 1) - -30.3) < 0.1)
    }
}

@Suite struct CaptureEngineTapTests {
    @Test func twoRecordersOnOneEngineGetTheSameFrames() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let input = directory.file("counter.wav")
        try MonoCounter.write(input, seconds: 2)
        let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 1)
        let engine = CaptureEngine(source: try FileSource(path: input, sampleFormat: .int16, paced: false))
        let recorders = try ["a.wav", "b.wav"].map { name in
            try Recorder(url: directory.file(name), settings: settings, engine: engine, input: .file(path: input))
        }
        for recorder in recorders { try recorder.record() }
        engine.start()
        try wait(for: "the engine to capture the whole 2 s counter into both recorders", polling: .milliseconds(10)) {
            engine.hasEnded
        }
        for recorder in recorders { recorder.stop() }
        engine.stop()
        let a = try MonoCounter.read(directory.file("a.wav"))
        let b = try MonoCounter.read(directory.file("b.wav"))
        #expect(a.count == 96_000)
        #expect(a == b)
        #expect(a.first == 0)
    }
}
