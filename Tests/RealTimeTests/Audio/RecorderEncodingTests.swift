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

    /// A real-time tone: while it records, the final file grows and the encoder keeps up
    /// (`finishingProgress` reaches what was written); `stop()` returns with the file complete,
    /// its frames those recorded within the codec's padding, and the intermediate removed.
    @Test(arguments: EncodedRecording.lossy)
    func aLossyMemoIsEncodedWhileItRecords(_ format: FileFormat) throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let path = directory.file("memo.\(format.rawValue)")
        let intermediate = SoundFileRecovery.intermediatePath(for: path)
        let recorder = try Recorder(
            url: path, settings: RecordingSettings(format: format, sampleRate: 48_000, channels: 1),
            input: .tone(frequency: 440, peakDBFS: -6), measuresStatistics: true,
            eventQueue: DispatchQueue(label: "test.events"))
        #expect(recorder.finishingProgress == nil, "nothing to encode before preparing")
        try recorder.record()
        let atStart = EncodedRecording.size(of: path)
        #expect(FileManager.default.fileExists(atPath: intermediate))
        let grew = EncodedRecording.wait(atMost: 20) {
            recorder.recordedFrames >= 48_000 && EncodedRecording.size(of: path) > atStart
                && (recorder.finishingProgress ?? 0) > 0.5
        }
        #expect(grew, "the final file grows before stop: \(atStart) → \(EncodedRecording.size(of: path)) bytes, progress \(recorder.finishingProgress ?? -1)")
        let beforeStop = EncodedRecording.size(of: path)
        #expect(beforeStop > atStart)
        recorder.stop()
        #expect(recorder.hasFinished)
        #expect(recorder.error == nil)
        #expect(recorder.finishingProgress == nil, "nothing left once finished")
        #expect(!FileManager.default.fileExists(atPath: intermediate), "the intermediate is removed once the file is complete")
        #expect(EncodedRecording.size(of: path) >= beforeStop)
        let frames = try EncodedRecording.decodedFrames(path, channels: 1)
        #expect(abs(frames - recorder.recordedFrames) <= EncodedRecording.tolerance(format), "\(frames) decoded of \(recorder.recordedFrames) recorded")
        let statistics = try #require(recorder.measuredStatistics)
        #expect(abs(statistics.samplePeakDB - -6) < 0.1)
    }
}
