import Audio
import Dispatch
import Foundation
import SoundFiles
import Synchronization
import Testing

/// The Recorder's AVAudioRecorder-style API driven with real sources: a counter signal
/// played in through `file:` (each frame holds its own index, so a repeated or dropped
/// frame shows), paced to real time like a device.
@Suite struct RecorderLifecycleTests {
    /// A mono pcm16 WAV whose frame i holds i mod 32768.
    static func writeCounter(_ path: String, seconds: Double) throws {
        let frames = Int(seconds * 48_000)
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 1))
        let samples = (0..<frames).map { Int16($0 % 32_768) }
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: .int16)
        }
        try writer.close()
    }

    static func readCounter(_ path: String) throws -> [Int] {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        let count = Int(reader.info.frames)
        var samples = [Int16](repeating: 0, count: count)
        let read = try samples.withUnsafeMutableBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return try reader.read(into: base, frames: count, as: .int16)
        }
        return samples.prefix(read).map(Int.init)
    }

    /// Runs of consecutive counter values: [(first value, length)].
    static func runs(_ values: [Int]) -> [(first: Int, count: Int)] {
        var runs: [(first: Int, count: Int)] = []
        for (index, value) in values.enumerated() {
            if index > 0, value == (values[index - 1] + 1) % 32_768 {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((value, 1))
            }
        }
        return runs
    }

    let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 1)

    @Test func pauseAndResumeGiveOneContinuousFileWithoutThePausedTime() throws {
        let directory = try TestDirectory()
        let input = directory.path("counter.wav")
        try Self.writeCounter(input, seconds: 10)
        let output = directory.path("paused.wav")
        let recorder = try Recorder(
            url: output, settings: settings, input: .file(path: input),
            eventQueue: DispatchQueue(label: "test.events"))
        try recorder.record()
        usleep(400_000)
        recorder.pause()
        #expect(!recorder.isRecording)
        let atPause = recorder.currentTime
        usleep(400_000)
        #expect(recorder.currentTime == atPause, "time stands still while paused")
        try recorder.record()
        usleep(400_000)
        recorder.stop()

        let values = try Self.readCounter(output)
        let runs = Self.runs(values)
        #expect(runs.count == 2, "one jump, at the pause: \(runs)")
        #expect(values.count == recorder.recordedFrames)
        #expect(abs(recorder.currentTime - Double(values.count) / 48_000) < 1e-9)
        if runs.count == 2 {
            // The counter wraps every 32 768 frames (0.68 s); the pause is shorter than that.
            let skipped = ((runs[1].first - (runs[0].first + runs[0].count)) % 32_768 + 32_768) % 32_768
            #expect(skipped > 12_000 && skipped < 30_000, "the pause (about 0.4 s) is not in the file: \(skipped) frames")
        }
    }

    @Test func recordAtTimeStartsOnTheExactFrameAndDurationIsExact() throws {
        let directory = try TestDirectory()
        let input = directory.path("counter.wav")
        try Self.writeCounter(input, seconds: 5)
        let output = directory.path("timed.wav")
        let finished = DispatchSemaphore(value: 0)
        let success = Mutex<Bool?>(nil)
        let recorder = try Recorder(
            url: output, settings: settings, input: .file(path: input),
            eventQueue: DispatchQueue(label: "test.events"),
            events: RecorderEvents(didFinishRecording: { ok in
                success.withLock { $0 = ok }
                finished.signal()
            }))
        try recorder.prepareToRecord()
        try recorder.record(atTime: 0.5, forDuration: 0.25)
        #expect(finished.wait(timeout: .now() + 10) == .success, "stops by itself")
        recorder.stop()
        #expect(success.withLock { $0 } == true)
        let values = try Self.readCounter(output)
        #expect(values.count == 12_000)
        #expect(values.first == 24_000, "starts at device frame 24 000 exactly")
        #expect(Self.runs(values).count == 1)
    }

    /// An input faster than real time (a file device, an unpaced file) must not run
    /// ahead between opening and recording: `record` arms before the input starts.
    @Test func recordingFromAnUnpacedInputStartsAtItsFirstFrame() throws {
        let directory = try TestDirectory()
        let input = directory.path("counter.wav")
        try Self.writeCounter(input, seconds: 3)
        let finished = DispatchSemaphore(value: 0)
        let recorder = try Recorder(
            url: directory.path("first.wav"), settings: settings, input: .file(path: input), paced: false,
            eventQueue: DispatchQueue(label: "test.events"),
            events: RecorderEvents(didFinishRecording: { _ in finished.signal() }))
        try recorder.record(forDuration: 1)
        #expect(finished.wait(timeout: .now() + 10) == .success)
        recorder.stop()
        let values = try Self.readCounter(directory.path("first.wav"))
        #expect(values.count == 48_000)
        #expect(values.first == 0)
        #expect(Self.runs(values).count == 1, "no gap and no repeat")
    }

    @Test func runningOutOfInputFinishesSuccessfully() throws {
        let directory = try TestDirectory()
        let input = directory.path("short.wav")
        try Self.writeCounter(input, seconds: 0.3)
        let finished = DispatchSemaphore(value: 0)
        let recorder = try Recorder(
            url: directory.path("out.wav"), settings: settings, input: .file(path: input), paced: false,
            eventQueue: DispatchQueue(label: "test.events"),
            events: RecorderEvents(didFinishRecording: { _ in finished.signal() }))
        try recorder.record()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        recorder.stop()
        #expect(recorder.recordedFrames <= 14_400)
        #expect(recorder.error == nil)
        #expect(try Self.readCounter(directory.path("out.wav")).count == recorder.recordedFrames)
    }

    @Test func deleteRecordingOnlyWhenStopped() throws {
        let directory = try TestDirectory()
        let output = directory.path("tone.wav")
        let recorder = try Recorder(
            url: output, settings: settings, input: .tone(frequency: 440, peakDBFS: -6),
            eventQueue: DispatchQueue(label: "test.events"))
        try recorder.record()
        usleep(100_000)
        #expect(throws: RecorderError.self) { try recorder.deleteRecording() }
        #expect(FileManager.default.fileExists(atPath: output))
        recorder.stop()
        #expect(try recorder.deleteRecording())
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(throws: RecorderError.self) { try recorder.record() }
    }

    @Test func meteringFollowsTheInputWhileMonitoringAndRecording() throws {
        let directory = try TestDirectory()
        let recorder = try Recorder(
            url: directory.path("m.wav"), settings: settings, input: .tone(frequency: 1000, peakDBFS: -12),
            eventQueue: DispatchQueue(label: "test.events"))
        try recorder.prepareToRecord()
        usleep(200_000)
        recorder.updateMeters()
        #expect(abs(recorder.peakPower(forChannel: 0) - -12) < 0.1, "the meter runs before recording starts")
        #expect(recorder.peakPower(forChannel: 5) == -160, "an unknown channel reads the floor")
        recorder.stop()
    }

    @Test func badSettingsAndBadInputsCreateNothing() throws {
        let directory = try TestDirectory()
        let output = directory.path("x.opus")
        #expect(throws: RecorderError.self) {
            _ = try Recorder(url: output, settings: RecordingSettings(format: .opus, sampleRate: 44_100, channels: 2))
        }
        let missingDevice = try Recorder(
            url: directory.path("y.wav"), settings: settings, input: .alsa(device: "voicememo_no_such_pcm"))
        do {
            try missingDevice.prepareToRecord()
            Issue.record("opening a missing device must fail")
        } catch {
            #expect(error.kind == .input)
            #expect(error.message.contains("voicememo_no_such_pcm"))
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(!FileManager.default.fileExists(atPath: directory.path("y.wav")))
        let mismatch = try Recorder(
            url: directory.path("z.wav"), settings: RecordingSettings(format: .wav, sampleRate: 44_100, channels: 1),
            input: .file(path: "/nonexistent/input.wav"))
        #expect(throws: RecorderError.self) { try mismatch.prepareToRecord() }
    }
}

/// A temporary directory removed when the test ends.
final class TestDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-recorder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

@Suite struct CaptureEngineTests {
    @Test func clipsAreCountedPerSnapshotAndQuietInputHasNone() throws {
        let directory = try TestDirectory()
        let path = directory.path("square.wav")
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
        let directory = try TestDirectory()
        let input = directory.path("counter.wav")
        try RecorderLifecycleTests.writeCounter(input, seconds: 2)
        let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 1)
        let engine = CaptureEngine(source: try FileSource(path: input, sampleFormat: .int16, paced: false))
        let recorders = try ["a.wav", "b.wav"].map { name in
            try Recorder(url: directory.path(name), settings: settings, engine: engine, input: .file(path: input))
        }
        for recorder in recorders { try recorder.record() }
        engine.start()
        try wait(for: "the engine to capture the whole 2 s counter into both recorders", polling: .milliseconds(10)) {
            engine.hasEnded
        }
        for recorder in recorders { recorder.stop() }
        engine.stop()
        let a = try RecorderLifecycleTests.readCounter(directory.path("a.wav"))
        let b = try RecorderLifecycleTests.readCounter(directory.path("b.wav"))
        #expect(a.count == 96_000)
        #expect(a == b)
        #expect(a.first == 0)
    }
}
