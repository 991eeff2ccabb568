import Audio
import Dispatch
import Foundation
import SoundFiles
import Testing

/// MP3 and Ogg Vorbis memos are encoded while they record (from the W64 intermediate, on a
/// low-priority thread): the final file grows before `stop()`, and `stop()` leaves only the
/// last moments to encode.
@Suite struct RecorderEncodingTests {
    static let lossy: [FileFormat] = [.mp3, .ogg]

    /// The codec's padding: what the decoded length may differ from the frames recorded
    /// (LAME's frame, Vorbis's largest block), as in SoundFilesTests' round trips.
    static func tolerance(_ format: FileFormat) -> Int {
        format == .mp3 ? 1152 : 2048
    }

    /// Waits for `condition`, polling every 20 ms, for at most `seconds`.
    static func wait(atMost seconds: Double, for condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            usleep(20_000)
        }
        return true
    }

    static func size(of path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
    }

    static func decodedFrames(_ path: String, channels: Int) throws -> Int {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        var total = 0
        var buffer = [Float](repeating: 0, count: 4096 * channels)
        while true {
            let read = try buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return try reader.read(into: base, frames: 4096, as: .float32)
            }
            if read == 0 { return total }
            total += read
        }
    }

    /// A real-time tone: while it records, the final file grows and the encoder keeps up
    /// (`finishingProgress` reaches what was written); `stop()` returns with the file complete,
    /// its frames those recorded within the codec's padding, and the intermediate removed.
    @Test(arguments: lossy)
    func aLossyMemoIsEncodedWhileItRecords(_ format: FileFormat) throws {
        let directory = try TestDirectory()
        let path = directory.path("memo.\(format.rawValue)")
        let intermediate = SoundFileRecovery.intermediatePath(for: path)
        let recorder = try Recorder(
            url: path, settings: RecordingSettings(format: format, sampleRate: 48_000, channels: 1),
            input: .tone(frequency: 440, peakDBFS: -6), measuresStatistics: true,
            eventQueue: DispatchQueue(label: "test.events"))
        #expect(recorder.finishingProgress == nil, "nothing to encode before preparing")
        try recorder.record()
        let atStart = Self.size(of: path)
        #expect(FileManager.default.fileExists(atPath: intermediate))
        let grew = Self.wait(atMost: 20) {
            recorder.recordedFrames >= 48_000 && Self.size(of: path) > atStart
                && (recorder.finishingProgress ?? 0) > 0.5
        }
        #expect(grew, "the final file grows before stop: \(atStart) → \(Self.size(of: path)) bytes, progress \(recorder.finishingProgress ?? -1)")
        let beforeStop = Self.size(of: path)
        #expect(beforeStop > atStart)
        recorder.stop()
        #expect(recorder.hasFinished)
        #expect(recorder.error == nil)
        #expect(recorder.finishingProgress == nil, "nothing left once finished")
        #expect(!FileManager.default.fileExists(atPath: intermediate), "the intermediate is removed once the file is complete")
        #expect(Self.size(of: path) >= beforeStop)
        let frames = try Self.decodedFrames(path, channels: 1)
        #expect(abs(frames - recorder.recordedFrames) <= Self.tolerance(format), "\(frames) decoded of \(recorder.recordedFrames) recorded")
        let statistics = try #require(recorder.measuredStatistics)
        #expect(abs(statistics.samplePeakDB - -6) < 0.1)
    }

    /// An unpaced source runs far ahead of the nice-19 encoder; whatever it has not reached
    /// at the end is encoded by the writer thread before `stop()` returns: nothing is lost.
    @Test(arguments: lossy)
    func whatTheEncoderHasNotReachedIsEncodedBeforeStopReturns(_ format: FileFormat) throws {
        let directory = try TestDirectory()
        let path = directory.path("fast.\(format.rawValue)")
        let recorder = try Recorder(
            url: path, settings: RecordingSettings(format: format, sampleRate: 48_000, channels: 2),
            input: .tone(frequency: 1000, peakDBFS: -12), paced: false, eventQueue: DispatchQueue(label: "test.events"))
        try recorder.record(forDuration: 30)
        var progress: [Double] = []
        let finished = Self.wait(atMost: 120) {
            if let value = recorder.finishingProgress { progress.append(value) }
            return recorder.hasFinished
        }
        #expect(finished)
        recorder.stop()
        #expect(progress.allSatisfy { $0 >= 0 && $0 <= 1 }, "a fraction: \(progress.prefix(5))")
        #expect(recorder.recordedFrames == 30 * 48_000)
        let frames = try Self.decodedFrames(path, channels: 2)
        #expect(abs(frames - 30 * 48_000) <= Self.tolerance(format), "\(frames) decoded")
        #expect(!FileManager.default.fileExists(atPath: SoundFileRecovery.intermediatePath(for: path)))
    }

    /// WAV and FLAC are written directly: no encoder, no progress.
    @Test func formatsWrittenDirectlyHaveNoFinishingProgress() throws {
        let directory = try TestDirectory()
        let recorder = try Recorder(
            url: directory.path("memo.flac"), settings: RecordingSettings(format: .flac, sampleRate: 48_000, channels: 1),
            input: .tone(frequency: 440, peakDBFS: -6), paced: false, eventQueue: DispatchQueue(label: "test.events"))
        try recorder.record(forDuration: 0.5)
        #expect(recorder.finishingProgress == nil)
        recorder.stop()
    }
}
