import Foundation
import SoundFiles
import Testing
import TestSupport
@testable import Transcription

/// Only what the speech detector calls speech reaches the recogniser, and skipping moves no word.
/// Asserted on the audio handed to the recogniser (`Result.decodedDuration`), not on time taken.
@Suite struct SpeechSkippingTests {
    static let rate = 16_000

    enum Noise: CaseIterable {
        case white, brown, silence
    }

    /// Seeded noise at 16 kHz: white at about −36 dBFS RMS, brown (white integrated, leaking)
    /// at about −30 dBFS RMS, or digital silence.
    static func noise(_ kind: Noise, seconds: Double, seed: UInt64) -> [Int16] {
        var random = SeededRandom(seed: seed)
        var brown = 0.0
        return (0..<Int(seconds * Double(rate))).map { _ in
            switch kind {
            case .white:
                return Int16(max(-32768, min(32767, (random.gaussian() * 520).rounded())))
            case .brown:
                brown = brown * 0.998 + random.gaussian() * 60
                return Int16(max(-32768, min(32767, brown.rounded())))
            case .silence:
                return 0
            }
        }
    }

    static func write(_ samples: [Int16], to path: String) throws {
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, sampleRate: rate, channels: 1), metadata: SoundFileMetadata())
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: samples.count, sampleFormat: .int16)
        }
        try writer.close()
    }

    static func clip(_ id: String) throws -> [Int16] {
        let (info, samples) = try TestSignals.readInt16(LibriVoxClips.path(id))
        #expect(info.sampleRate == rate && info.channels == 1)
        return samples
    }

    /// A minute of each noise finds no words, and next to none of it is decoded.
    @Test(arguments: Noise.allCases) func aMemoOfNoiseDecodesNextToNothing(kind: Noise) throws {
        let folder = try TemporaryDirectory(prefix: "skipping")
        let path = folder.path + "/noise.wav"
        try Self.write(Self.noise(kind, seconds: 60, seed: 0x5EED), to: path)
        let result = try LibriVoxClips.transcribe(path)
        #expect(result.audioDuration == 60)
        #expect(result.words.isEmpty, "\(result.words)")
        #expect(result.decodedDuration <= 1.5, "\(result.decodedDuration) s of \(kind) noise decoded")
    }

    /// A clip between two 45 s stretches of noise hears the clip's words at the times it hears
    /// them in the clip alone, moved by where the clip starts; the noise is not decoded. The
    /// noise next to the words is heard with them (the margins, the pauses kept), so a word may
    /// come out differently, never at another time.
    @Test(arguments: [Noise.white, Noise.brown]) func speechInsideLongNoiseKeepsItsWordsAndTimes(kind: Noise) throws {
        let folder = try TemporaryDirectory(prefix: "skipping")
        let id = LibriVoxClips.ids[0]
        let clip = try Self.clip(id)
        let before = Self.noise(kind, seconds: 45, seed: 1)
        let after = Self.noise(kind, seconds: 45, seed: 2)
        let path = folder.path + "/surrounded.wav"
        try Self.write(before + clip + after, to: path)

        let alone = try LibriVoxClips.transcribe(LibriVoxClips.path(id))
        let surrounded = try LibriVoxClips.transcribe(path)
        let clipStart = Double(before.count) / Double(Self.rate)
        let clipSeconds = Double(clip.count) / Double(Self.rate)
        #expect(alone.words.count >= 15)
        #expect(surrounded.words.count == alone.words.count, "\(surrounded.words) vs \(alone.words)")
        let same = zip(surrounded.words, alone.words).filter { $0.0.word == $0.1.word }
        #expect(same.count >= alone.words.count - 2, "\(surrounded.words) vs \(alone.words)")
        for (heard, reference) in same {
            #expect(abs(heard.start - clipStart - reference.start) <= 0.1, "\(heard) vs \(reference) + \(clipStart)")
            #expect(abs(heard.end - clipStart - reference.end) <= 0.1, "\(heard) vs \(reference) + \(clipStart)")
        }
        #expect(surrounded.decodedDuration <= clipSeconds + 2, "\(surrounded.decodedDuration) s decoded for a \(clipSeconds) s clip")
    }

    /// Turned off, every second is decoded: the count is what the recogniser was handed.
    @Test func withoutSkippingEverySecondIsDecoded() throws {
        let folder = try TemporaryDirectory(prefix: "skipping")
        let path = folder.path + "/noise.wav"
        try Self.write(Self.noise(.brown, seconds: 20, seed: 3), to: path)
        let transcriber = Transcriber(model: try SpeechModel())
        transcriber.skipsNonSpeech = false
        let result = try transcriber.transcribe(path: path)
        #expect(result.decodedDuration == 20)
    }
}
