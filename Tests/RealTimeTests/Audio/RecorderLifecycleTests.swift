import TestSupport
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
    let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 1)

    @Test func pauseAndResumeGiveOneContinuousFileWithoutThePausedTime() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let input = directory.file("counter.wav")
        try MonoCounter.write(input, seconds: 10)
        let output = directory.file("paused.wav")
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

        let values = try MonoCounter.read(output)
        let runs = MonoCounter.runs(values)
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
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let input = directory.file("counter.wav")
        try MonoCounter.write(input, seconds: 5)
        let output = directory.file("timed.wav")
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
        let values = try MonoCounter.read(output)
        #expect(values.count == 12_000)
        #expect(values.first == 24_000, "starts at device frame 24 000 exactly")
        #expect(MonoCounter.runs(values).count == 1)
    }

    /// An input faster than real time (a file device, an unpaced file) must not run
    /// ahead between opening and recording: `record` arms before the input starts.
    @Test func recordingFromAnUnpacedInputStartsAtItsFirstFrame() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let input = directory.file("counter.wav")
        try MonoCounter.write(input, seconds: 3)
        let finished = DispatchSemaphore(value: 0)
        let recorder = try Recorder(
            url: directory.file("first.wav"), settings: settings, input: .file(path: input), paced: false,
            eventQueue: DispatchQueue(label: "test.events"),
            events: RecorderEvents(didFinishRecording: { _ in finished.signal() }))
        try recorder.record(forDuration: 1)
        #expect(finished.wait(timeout: .now() + 10) == .success)
        recorder.stop()
        let values = try MonoCounter.read(directory.file("first.wav"))
        #expect(values.count == 48_000)
        #expect(values.first == 0)
        #expect(MonoCounter.runs(values).count == 1, "no gap and no repeat")
    }

    @Test func runningOutOfInputFinishesSuccessfully() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let input = directory.file("short.wav")
        try MonoCounter.write(input, seconds: 0.3)
        let finished = DispatchSemaphore(value: 0)
        let recorder = try Recorder(
            url: directory.file("out.wav"), settings: settings, input: .file(path: input), paced: false,
            eventQueue: DispatchQueue(label: "test.events"),
            events: RecorderEvents(didFinishRecording: { _ in finished.signal() }))
        try recorder.record()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        recorder.stop()
        #expect(recorder.recordedFrames <= 14_400)
        #expect(recorder.error == nil)
        #expect(try MonoCounter.read(directory.file("out.wav")).count == recorder.recordedFrames)
    }

    @Test func deleteRecordingOnlyWhenStopped() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let output = directory.file("tone.wav")
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
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let recorder = try Recorder(
            url: directory.file("m.wav"), settings: settings, input: .tone(frequency: 1000, peakDBFS: -12),
            eventQueue: DispatchQueue(label: "test.events"))
        try recorder.prepareToRecord()
        usleep(200_000)
        recorder.updateMeters()
        #expect(abs(recorder.peakPower(forChannel: 0) - -12) < 0.1, "the meter runs before recording starts")
        #expect(recorder.peakPower(forChannel: 5) == -160, "an unknown channel reads the floor")
        recorder.stop()
    }

    @Test func badSettingsAndBadInputsCreateNothing() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let output = directory.file("x.opus")
        #expect(throws: RecorderError.self) {
            _ = try Recorder(url: output, settings: RecordingSettings(format: .opus, sampleRate: 44_100, channels: 2))
        }
        let missingDevice = try Recorder(
            url: directory.file("y.wav"), settings: settings, input: .alsa(device: "voicememo_no_such_pcm"))
        do {
            try missingDevice.prepareToRecord()
            Issue.record("opening a missing device must fail")
        } catch {
            #expect(error.kind == .input)
            #expect(error.message.contains("voicememo_no_such_pcm"))
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(!FileManager.default.fileExists(atPath: directory.file("y.wav")))
        let mismatch = try Recorder(
            url: directory.file("z.wav"), settings: RecordingSettings(format: .wav, sampleRate: 44_100, channels: 1),
            input: .file(path: "/nonexistent/input.wav"))
        #expect(throws: RecorderError.self) { try mismatch.prepareToRecord() }
    }
}
