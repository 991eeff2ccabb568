import TestSupport
import Audio
import Dispatch
import Foundation
import SoundFiles
import Testing

/// MP3 and Ogg Vorbis memos are encoded while they record (from the W64 intermediate, on a
/// low-priority thread): the final file grows before `stop()`, and `stop()` leaves only the
/// last moments to encode.
@Suite struct RecorderEncodingTests {
    /// An unpaced source runs far ahead of the nice-19 encoder; whatever it has not reached
    /// at the end is encoded by the writer thread before `stop()` returns: nothing is lost.
    @Test(arguments: EncodedRecording.lossy)
    func whatTheEncoderHasNotReachedIsEncodedBeforeStopReturns(_ format: FileFormat) throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let path = directory.file("fast.\(format.rawValue)")
        let recorder = try Recorder(
            url: path, settings: RecordingSettings(format: format, sampleRate: 48_000, channels: 2),
            input: .tone(frequency: 1000, peakDBFS: -12), paced: false, eventQueue: DispatchQueue(label: "test.events"))
        try recorder.record(forDuration: 30)
        var progress: [Double] = []
        let finished = EncodedRecording.wait(atMost: 120) {
            if let value = recorder.finishingProgress { progress.append(value) }
            return recorder.hasFinished
        }
        #expect(finished)
        recorder.stop()
        #expect(progress.allSatisfy { $0 >= 0 && $0 <= 1 }, "a fraction: \(progress.prefix(5))")
        #expect(recorder.recordedFrames == 30 * 48_000)
        let frames = try EncodedRecording.decodedFrames(path, channels: 2)
        #expect(abs(frames - 30 * 48_000) <= EncodedRecording.tolerance(format), "\(frames) decoded")
        #expect(!FileManager.default.fileExists(atPath: SoundFileRecovery.intermediatePath(for: path)))
    }

    /// A recorder's own input is read for its recording alone: once the duration is reached it
    /// stops reading, while the encoder still finishes the file (an unpaced source is not read,
    /// converted and metered at full speed meanwhile).
    @Test func anOwnInputStopsBeingReadOnceTheDurationIsReached() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let recorder = try Recorder(
            url: directory.file("short.mp3"), settings: RecordingSettings(format: .mp3, sampleRate: 48_000, channels: 2),
            input: .tone(frequency: 1000, peakDBFS: -12), paced: false, eventQueue: DispatchQueue(label: "test.events"))
        try recorder.record(forDuration: 5)
        #expect(EncodedRecording.wait(atMost: 120) { recorder.hasFinished })
        // The input's engine ends once the recording takes no more frames: nothing reads it after.
        #expect(EncodedRecording.wait(atMost: 120) { recorder.captureEngine?.hasEnded == true }, "the input was still being read")
        let capturedAtTheEnd = recorder.deviceCurrentTime
        // The read that reached the duration is the last: at most one chunk (1/6 s) past it.
        #expect(capturedAtTheEnd <= 5 + 1.0 / 6, "\(capturedAtTheEnd) s read for a 5 s recording")
        recorder.stop()
        #expect(recorder.recordedFrames == 5 * 48_000)
    }

    /// WAV and FLAC are written directly: no encoder, no progress.
    @Test func formatsWrittenDirectlyHaveNoFinishingProgress() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let recorder = try Recorder(
            url: directory.file("memo.flac"), settings: RecordingSettings(format: .flac, sampleRate: 48_000, channels: 1),
            input: .tone(frequency: 440, peakDBFS: -6), paced: false, eventQueue: DispatchQueue(label: "test.events"))
        try recorder.record(forDuration: 0.5)
        #expect(recorder.finishingProgress == nil)
        recorder.stop()
    }
}
