import TestSupport
import Dispatch
import Foundation
import MemoLibrary
import Metering
import SoundFiles
import Synchronization
import Testing

@testable import Audio

/// A real `FileSource` whose frames the test lets through in steps: the capture thread
/// blocks in `read` until the test allows more, so a pause can fall between two known
/// frames without any clock.
final class SteppedSource: CaptureSource, @unchecked Sendable {
    private let inner: FileSource
    private let allowance = Mutex(0)
    private let allowed = DispatchSemaphore(value: 0)

    init(_ inner: FileSource) {
        self.inner = inner
    }

    var format: StreamFormat { inner.format }
    var name: String { "stepped " + inner.name }

    /// Lets `frames` more frames through (`Int.max`: the rest of the file).
    func allow(_ frames: Int) {
        allowance.withLock { $0 = frames == .max ? .max : $0 + frames }
        allowed.signal()
    }

    func read(into buffer: UnsafeMutableRawPointer, frames: Int) throws(CaptureError) -> CaptureRead {
        while true {
            let granted = allowance.withLock { allowance -> Int in
                let granted = min(allowance, frames)
                if allowance != .max { allowance -= granted }
                return granted
            }
            if granted > 0 {
                let read = try inner.read(into: buffer, frames: granted)
                // The file may deliver less than asked: what it did not deliver stays allowed.
                allowance.withLock { if $0 != .max { $0 += granted - read.frames } }
                return read
            }
            allowed.wait()
        }
    }

    func close() {
        allow(.max)
        inner.close()
    }
}

/// `Recorder.measuredStatistics`: what a memo's recorder measures while writing equals what
/// `voicememo analyze` (`FileAnalysis`) measures in the finished file, pauses excluded; a
/// plain recording measures nothing.
@Suite struct RecorderStatisticsTests {
    static let rate = 48_000

    /// Stereo: a 1 kHz sine at −12 dBFS with a burst of full-scale samples every 0.5 s
    /// (`fullScalePerBurst` on the left channel: a clip; one on the right: none), in `encoding`.
    static func writeTone(_ path: String, seconds: Int, encoding: Encoding) throws {
        let frames = seconds * rate
        let settings = RecordingSettings(format: .wav, encoding: encoding, sampleRate: rate, channels: 2)
        let writer = try SoundFileWriter(path: path, settings: settings)
        var samples = [Float](repeating: 0, count: frames * 2)
        let amplitude = Float(pow(10, -12.0 / 20))
        for frame in 0..<frames {
            let value = amplitude * Float(sin(2 * Double.pi * 1000 * Double(frame) / Double(rate)))
            samples[2 * frame] = value
            samples[2 * frame + 1] = value
        }
        for burst in stride(from: 100, to: frames, by: rate / 2) {
            for offset in 0..<fullScalePerBurst { samples[2 * (burst + offset)] = offset.isMultiple(of: 2) ? 1 : -1 }
            samples[2 * burst + 1] = 1
        }
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: .float32)
        }
        try writer.close()
    }

    static let fullScalePerBurst = 3

    /// Waits (on the engine's own count, not a clock) until the capture thread has handed
    /// `frames` frames to its taps.
    static func waitUntilCaptured(_ engine: CaptureEngine, _ frames: Int) throws {
        try wait(for: "the engine to capture \(frames) frames (it has \(engine.capturedFrames))") {
            engine.capturedFrames >= frames
        }
    }

    static func expectEqual(_ measured: ProgrammeStatistics, _ file: ProgrammeStatistics) throws {
        #expect(measured.frames == file.frames)
        #expect(abs(measured.samplePeakDB - file.samplePeakDB) <= 0.05)
        let truePeak = try #require(measured.truePeakDBTP)
        #expect(abs(truePeak - (try #require(file.truePeakDBTP))) <= 0.05)
        let loudness = try #require(measured.loudnessLUFS)
        #expect(abs(loudness - (try #require(file.loudnessLUFS))) <= 0.05)
        let range = try #require(measured.loudnessRange)
        #expect(abs(range - (try #require(file.loudnessRange))) <= 0.05)
        #expect(measured.clipCount == file.clipCount)
    }

    @Test(arguments: [Encoding.pcm16, .pcm24, .float])
    func measuredWhileRecordingEqualsTheFileWithThePauseLeftOut(encoding: Encoding) throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let input = directory.file("clips.wav")
        try Self.writeTone(input, seconds: 12, encoding: encoding)
        let settings = RecordingSettings(format: .wav, encoding: encoding, sampleRate: Self.rate, channels: 2)
        let source = SteppedSource(
            try FileSource(path: input, sampleFormat: settings.preferredSampleFormat, paced: false))
        let engine = CaptureEngine(source: source)
        let output = directory.file("memo.wav")
        let recorder = try Recorder(
            url: output, settings: settings, engine: engine, input: .file(path: input), measuresStatistics: true,
            eventQueue: DispatchQueue(label: "test.events"))
        try recorder.record()
        engine.start()

        // 0–4 s recorded, 4–8 s paused (8 bursts, 32 full-scale samples, not in the file), 8–12 s recorded.
        source.allow(4 * Self.rate)
        try Self.waitUntilCaptured(engine, 4 * Self.rate)
        recorder.pause()
        source.allow(4 * Self.rate)
        try Self.waitUntilCaptured(engine, 8 * Self.rate)
        try recorder.record()
        source.allow(.max)
        try wait(for: "the engine to reach the end of the 12 s file") { engine.hasEnded }
        recorder.stop()
        engine.stop()

        #expect(recorder.recordedFrames == 8 * Self.rate)
        let measured = try #require(recorder.measuredStatistics)
        let file = try FileAnalysis.measure(path: output).statistics
        try Self.expectEqual(measured, file)
        #expect(measured.frames == Int64(8 * Self.rate))
        // One clip per burst (`ClipRule`: the left channel's three; the right's one sample is none).
        #expect(measured.clipCount == 16, "8 s recorded: 16 bursts; the 8 paused over are left out")
        let whole = try FileAnalysis.measure(path: input).statistics
        #expect(whole.clipCount == 24)
    }

    @Test func toneRecordedForADurationIsMeasured() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let output = directory.file("tone.flac")
        let settings = RecordingSettings(format: .flac, encoding: .pcm16, sampleRate: Self.rate, channels: 1)
        // A 0 dBFS sine at 1 kHz reaches full scale at its crests, one sample each: no clip.
        let recorder = try Recorder(
            url: output, settings: settings, input: .tone(frequency: 1000, peakDBFS: 0), paced: false,
            measuresStatistics: true, eventQueue: DispatchQueue(label: "test.events"))
        try recorder.record(forDuration: 6)
        try wait(for: "the recorder to finish its 6 s of unpaced tone") { recorder.hasFinished }
        recorder.stop()

        let measured = try #require(recorder.measuredStatistics)
        let file = try FileAnalysis.measure(path: output).statistics
        try Self.expectEqual(measured, file)
        #expect(measured.frames == Int64(6 * Self.rate))
        #expect(measured.clipCount == 0, "a clean full-scale sine does not clip")
        #expect(abs((measured.loudnessLUFS ?? 0) - -3.0) < 0.2, "a full-scale 1 kHz sine reads about −3 LUFS")
    }

    @Test func aPlainRecordingMeasuresNothing() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: Self.rate, channels: 1)
        let recorder = try Recorder(
            url: directory.file("plain.wav"), settings: settings, input: .tone(frequency: 440, peakDBFS: -6),
            paced: false, eventQueue: DispatchQueue(label: "test.events"))
        #expect(!recorder.measuresStatistics)
        try recorder.record(forDuration: 1)
        try wait(for: "the recorder to finish its 1 s of unpaced tone") { recorder.hasFinished }
        recorder.stop()
        #expect(recorder.statistics.framesWritten == Int64(Self.rate))
        #expect(recorder.measuredStatistics == nil)
    }
}
