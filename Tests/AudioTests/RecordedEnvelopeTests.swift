import TestSupport
import Dispatch
import Foundation
import Metering
import SoundFiles
import Testing

@testable import Audio
@testable import MemoLibrary

/// A memo's peak envelope is measured on its recorder's writer thread, beside the statistics,
/// and stored when the memo is finished: the stored envelope is the one its file gives
/// (`MemoLibrary.measureEnvelope(path:)`, which decodes it), block for block, for PCM and FLAC,
/// and the file is not decoded to get it.
@Suite struct RecordedEnvelopeTests {
    static let rate = 48_000

    /// 3 s of stereo: 1 s of digital silence, 1 s of a 1 kHz burst at −12 dBFS, 1 s of a sine
    /// whose amplitude rises from 0 to full scale (the right channel 6 dB lower throughout).
    static func writeSignal(_ path: String, encoding: Encoding, format: FileFormat) throws {
        let frames = 3 * rate
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: format, encoding: encoding, sampleRate: rate, channels: 2))
        var samples = [Float](repeating: 0, count: frames * 2)
        let burst = Float(pow(10, -12.0 / 20))
        for frame in rate..<frames {
            let sine = Float(sin(2 * Double.pi * 1000 * Double(frame) / Double(rate)))
            let amplitude = frame < 2 * rate ? burst : Float(frame - 2 * rate) / Float(rate) * 0.999
            samples[2 * frame] = amplitude * sine
            samples[2 * frame + 1] = amplitude * sine * 0.5
        }
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: .float32)
        }
        try writer.close()
    }

    @Test(arguments: [
        (FileFormat.wav, Encoding.pcm16), (.wav, .pcm24), (.wav, .float), (.flac, .pcm16), (.flac, .pcm24),
    ])
    func theStoredEnvelopeOfARecordedMemoIsTheOneItsFileGives(format: FileFormat, encoding: Encoding) throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let input = directory.file("signal.wav")
        try Self.writeSignal(input, encoding: encoding, format: .wav)
        let library = try MemoLibrary(folder: directory.file("library"), now: Date())
        let settings = RecordingSettings(format: format, encoding: encoding, sampleRate: Self.rate, channels: 2)
        let recording = try library.beginRecording(title: "Envelope", settings: settings, at: Date())
        let recorder = try Recorder(
            url: recording.memo.path, settings: settings, input: .file(path: input), metadata: recording.metadata,
            paced: false, measuresStatistics: true, eventQueue: DispatchQueue(label: "test.events"))
        try recorder.record()
        try wait(for: "the recorder to reach the end of the 3 s file", polling: .milliseconds(2)) { recorder.hasFinished }
        #expect(recorder.hasFinished, "the 3 s file ends the recording")
        recorder.stop()

        let measured = try #require(recorder.measuredStatistics?.envelope, "measured on the writer thread")
        let decodedBefore = library.filesDecoded
        let memo = try library.finishRecording(recording, statistics: recorder.measuredStatistics)
        #expect(library.filesDecoded == decodedBefore, "finishing decoded nothing")
        #expect(memo.frames == Int64(3 * Self.rate))
        let stored = try #require(try library.storedEnvelope(ofMemo: memo.id), "stored as the memo was saved")
        #expect(stored == measured)
        let fromFile = try MemoLibrary.measureEnvelope(path: memo.path)
        #expect(stored.blockFrames == fromFile.blockFrames)
        #expect(stored.peaks == fromFile.peaks, "\(format) \(encoding): block for block")
        #expect(stored.peaks.count == 60, "20 blocks a second")
        #expect(stored.peaks[0..<20].allSatisfy { $0 == 0 }, "digital silence")
        #expect(Set(stored.peaks[21..<39].map { (PeakEnvelope.decibels(forCode: $0)).rounded() }) == [-12], "the burst")
        #expect(zip(stored.peaks[41..<60], stored.peaks[42..<60]).allSatisfy { $0 <= $1 }, "the ramp rises")
    }
}
