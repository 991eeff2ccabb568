import Audio
import Foundation
import SoundFiles
import Synchronization
import TestSupport
import Testing
import Transcription

/// Live captions: PocketSphinx streamed in chunks as a recording would feed it, and a
/// captioner that cannot keep up saying so.
@Suite struct StreamingCaptionsTests {
    /// A LibriVox clip fed in 0.1 s chunks, as 48 kHz stereo int16 (a recording's format):
    /// guesses come before the clip ends, and the settled words overlap the reference.
    @Test func aClipFedInChunksGivesDraftWordsOfTheReference() throws {
        let id = LibriVoxClips.ids[0]
        let reader = try SoundFileReader(path: LibriVoxClips.path(id))
        let frames = Int(reader.info.frames)
        var mono = [Float](repeating: 0, count: frames)
        _ = try mono.withUnsafeMutableBytes { try reader.read(into: $0.baseAddress!, frames: frames, as: .float32) }
        reader.close()
        let resampler = try Resampler(inputRate: 16_000, outputRate: 48_000)
        var up: [Float] = []
        try mono.withUnsafeBufferPointer { try resampler.process($0, endOfInput: true, into: &up) }
        let stereo = Resampler.int16Samples(up.flatMap { [$0, $0] })
        let format = StreamFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)
        let captions = try StreamingCaptions(model: SpeechModel(), inputFormat: format)
        var heard: [Caption] = []
        var guessesBeforeTheEnd = 0
        let chunk = 4800
        try stereo.withUnsafeBytes { bytes in
            var frame = 0
            let total = stereo.count / 2
            while frame < total {
                let count = min(chunk, total - frame)
                let got = try captions.feed(bytes.baseAddress! + frame * format.bytesPerFrame, frames: count)
                guessesBeforeTheEnd += got.filter { !$0.isFinal && !$0.text.isEmpty }.count
                heard += got
                frame += count
            }
        }
        heard += try captions.finish()
        #expect(guessesBeforeTheEnd >= 3, "\(heard)")
        let settled = heard.filter(\.isFinal)
        let words = settled.flatMap { $0.text.split(separator: " ").map(String.init) }
        let reference = try #require(try LibriVoxClips.references()[id])
        let common = Set(words).intersection(reference)
        #expect(common.count >= reference.count / 3, "heard \(words.joined(separator: " ")); reference \(reference.joined(separator: " "))")
        #expect(common.contains("leisure") || common.contains("consider"), "\(words)")
        for caption in settled {
            #expect(caption.start >= 0 && caption.end <= Double(frames) / 16_000 + 0.5, "\(caption)")
        }
        let rate = WordErrorRate.of(reference: reference, hypothesis: words)
        #expect(rate.rate <= 0.8, "WER \(rate.rate) of the draft: \(words.joined(separator: " "))")
    }

    /// An unpaced source outruns any recogniser: the captioner reports falling behind once and
    /// ends, while the capture thread runs to the end of its 60 s without waiting.
    @Test func aCaptionerThatCannotKeepUpSaysSoAndNeverHoldsUpCapture() throws {
        let format = StreamFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)
        let engine = CaptureEngine(source: try ToneSource(frequency: 440, peakDBFS: -12, format: format, paced: false))
        let reports = Mutex<[CaptionReport]>([])
        let captioner = try LiveCaptioner(engine: engine, modelDirectory: SpeechModel.defaultDirectory, bufferSeconds: 0.2) { report in
            reports.withLock { $0.append(report) }
        }
        defer { captioner.stop() }
        engine.start(frameLimit: 48_000 * 60)
        defer { engine.stop() }
        try wait(for: "the engine to capture its 60 s of tone") { engine.hasEnded }
        try wait(for: "the captioner to report falling behind") { reports.withLock { $0.contains(.fellBehind) } }
        captioner.stop()
        #expect(reports.withLock { $0.filter { $0 == .fellBehind }.count } == 1)
    }

    @Test func aMissingModelIsRefusedBeforeAnythingIsAttached() throws {
        let format = StreamFormat(sampleRate: 48_000, channels: 1, sampleFormat: .int16)
        let engine = CaptureEngine(source: try ToneSource(frequency: 440, peakDBFS: -12, format: format, paced: false))
        let folder = try TemporaryDirectory(prefix: "no-model")
        #expect(throws: TranscriptionError.self) {
            _ = try LiveCaptioner(engine: engine, modelDirectory: folder.path) { _ in }
        }
    }
}
