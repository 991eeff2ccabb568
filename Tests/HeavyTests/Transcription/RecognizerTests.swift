import TestSupport
import Foundation
import SoundFiles
import Testing
@testable import Transcription

@Suite struct RecognizerTests {
    /// Words in order, times increasing and inside the file, and close to the reference.
    @Test func transcribesALibriVoxClip() throws {
        let id = LibriVoxClips.ids[0]
        let result = try LibriVoxClips.transcribe(LibriVoxClips.path(id))
        let duration = 113_600.0 / 16_000
        #expect(result.frames == 113_600)
        #expect(result.words.count >= 15, "\(result.words.map(\.word))")
        var previousEnd = 0.0
        for word in result.words {
            #expect(word.start >= previousEnd - 0.0001, "\(word) starts before the previous word ends")
            #expect(word.end > word.start, "\(word)")
            #expect(word.end <= duration + 0.0001, "\(word) ends after the file")
            previousEnd = word.end
        }
        let reference = try #require(try LibriVoxClips.references()[id])
        let rate = WordErrorRate.of(reference: reference, hypothesis: result.words.map(\.word))
        // The stock pocketsphinx_continuous gets 0.364 on this clip (docs/TRANSCRIPTS.md).
        #expect(rate.rate <= 0.464, "WER \(rate.rate): \(result.words.map(\.word).joined(separator: " "))")
        // Words both recognisers hear, where the reader says them (≈ 2.3 s and 2.9 s in).
        let leisure = try #require(result.words.first { $0.word == "leisure" })
        let consider = try #require(result.words.first { $0.word == "consider" })
        #expect(leisure.start > 1.5 && leisure.start < 3.5, "\(leisure)")
        #expect(consider.start > leisure.end - 0.0001)
    }

    /// The five clips together: within 0.10 of the stock decoder's word error rate.
    @Test func wordErrorRateOverTheLibriVoxClips() throws {
        let references = try LibriVoxClips.references()
        var total = WordErrorRate(errors: 0, referenceWords: 0)
        for id in LibriVoxClips.ids {
            let result = try LibriVoxClips.transcribe(LibriVoxClips.path(id))
            total = total + WordErrorRate.of(reference: try #require(references[id]), hypothesis: result.words.map(\.word))
        }
        // Stock pocketsphinx_continuous: 0.366 on these files; ours 0.282 (docs/TRANSCRIPTS.md).
        #expect(total.rate <= 0.466, "WER \(total.rate)")
    }

    /// A 48 kHz stereo copy of a clip (as a memo would be) hears the same words at the same times.
    @Test func aResampledStereoCopyHearsTheSameWords() throws {
        let folder = try TemporaryDirectory(prefix: "transcription")
        let id = LibriVoxClips.ids[3]
        let source = try SoundFileReader(path: LibriVoxClips.path(id))
        let frames = Int(source.info.frames)
        var mono = [Int16](repeating: 0, count: frames)
        let count = try mono.withUnsafeMutableBytes { raw in
            try source.read(into: raw.baseAddress!, frames: frames, as: .int16)
        }
        #expect(count == frames)
        // Three times the rate by repeating each sample is not band-limited: use libsamplerate,
        // the thing under test, only on the way in; the copy is written as 48 kHz stereo FLAC.
        let resampler = try Resampler(inputRate: 16_000, outputRate: 48_000)
        var up: [Float] = []
        let floats = mono.map { Float($0) / 32768 }
        try floats.withUnsafeBufferPointer { try resampler.process($0, endOfInput: true, into: &up) }
        let path = folder.path + "/memo.flac"
        let settings = RecordingSettings(format: .flac, sampleRate: 48_000, channels: 2)
        let writer = try SoundFileWriter(path: path, settings: settings, metadata: SoundFileMetadata())
        var stereo = [Float](repeating: 0, count: up.count * 2)
        for (index, value) in up.enumerated() {
            stereo[2 * index] = value
            stereo[2 * index + 1] = value
        }
        try stereo.withUnsafeBytes { try writer.write($0.baseAddress!, frames: up.count, sampleFormat: .float32) }
        try writer.close()

        let original = try LibriVoxClips.transcribe(LibriVoxClips.path(id))
        let copy = try LibriVoxClips.transcribe(path)
        let rate = WordErrorRate.of(reference: original.words.map(\.word), hypothesis: copy.words.map(\.word))
        #expect(rate.rate <= 0.15, "\(original.words.map(\.word)) vs \(copy.words.map(\.word))")
        if let first = original.words.first, let same = copy.words.first(where: { $0.word == first.word }) {
            #expect(abs(same.start - first.start) <= 0.05)
        }
    }

    /// Each utterance is normalised by itself: a memo's words do not depend on what the same
    /// transcriber decoded before (streamed, SphinxBase carried its cepstral mean over).
    @Test func wordsDoNotDependOnWhatWasTranscribedBefore() throws {
        let path = LibriVoxClips.path(LibriVoxClips.ids[2])
        _ = try LibriVoxClips.transcribe(LibriVoxClips.path(LibriVoxClips.ids[4]))
        let afterAnother = try LibriVoxClips.transcribe(path)
        let fresh = try Transcriber(model: try SpeechModel()).transcribe(path: path)
        #expect(fresh.words == afterAnother.words)
    }

    /// Two clips with a pause between them: two utterances, and the second clip's words are
    /// placed after the pause, not counted from their own utterance's start.
    @Test func wordsOfLaterUtterancesAreTimedFromTheStartOfTheFile() throws {
        let folder = try TemporaryDirectory(prefix: "transcription")
        var samples: [Int16] = []
        var firstLength = 0
        for (index, id) in [LibriVoxClips.ids[1], LibriVoxClips.ids[4]].enumerated() {
            let reader = try SoundFileReader(path: LibriVoxClips.path(id))
            let frames = Int(reader.info.frames)
            var clip = [Int16](repeating: 0, count: frames)
            _ = try clip.withUnsafeMutableBytes { try reader.read(into: $0.baseAddress!, frames: frames, as: .int16) }
            samples += clip
            if index == 0 {
                samples += [Int16](repeating: 0, count: 24_000)
                firstLength = samples.count
            }
        }
        let path = folder.path + "/two.wav"
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, sampleRate: 16_000, channels: 1), metadata: SoundFileMetadata())
        try samples.withUnsafeBytes { try writer.write($0.baseAddress!, frames: samples.count, sampleFormat: .int16) }
        try writer.close()

        let result = try LibriVoxClips.transcribe(path)
        #expect(result.utterances >= 2)
        let secondStart = Double(firstLength) / 16_000
        let later = result.words.filter { $0.start >= secondStart }
        #expect(later.map(\.word).contains("himself"), "\(result.words)")
        #expect(result.words.filter { $0.start < secondStart }.map(\.word).contains("young"), "\(result.words)")
        for (before, after) in zip(result.words, result.words.dropFirst()) {
            #expect(after.start >= before.end - 0.0001, "\(before) then \(after)")
        }
        #expect((result.words.last?.end ?? 0) <= Double(samples.count) / 16_000 + 0.0001)
    }

    @Test func fillersAndVariantsAreNotWords() {
        #expect(SpeechRecognizer.spokenWord("<s>") == nil)
        #expect(SpeechRecognizer.spokenWord("<sil>") == nil)
        #expect(SpeechRecognizer.spokenWord("[NOISE]") == nil)
        #expect(SpeechRecognizer.spokenWord("++BREATH++") == nil)
        #expect(SpeechRecognizer.spokenWord("the(2)") == "the")
        #expect(SpeechRecognizer.spokenWord("i'm") == "i'm")
    }

    @Test func wordErrorRateCountsEdits() {
        let rate = WordErrorRate.of(reference: ["a", "b", "c", "d"], hypothesis: ["a", "x", "c", "d", "e"])
        #expect(rate.errors == 2 && rate.referenceWords == 4)
        #expect(WordErrorRate.of(reference: ["a", "b"], hypothesis: []).errors == 2)
        #expect(WordErrorRate.of(reference: [], hypothesis: []).rate == 0)
    }
}
