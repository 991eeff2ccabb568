import TestSupport
import Foundation
import Testing

@testable import SoundFiles

/// A combination that must be refused, the path it was meant for, and words the message must hold.
struct RefusedCase: CustomTestStringConvertible, Sendable {
    var settings: RecordingSettings
    var fileName: String
    var words: [String]

    var testDescription: String { words.joined(separator: " / ") }

    static let all: [RefusedCase] = [
        .init(
            settings: .init(format: .opus, sampleRate: 44100), fileName: "a.opus",
            words: ["Ogg Opus records at 8000, 12000, 16000, 24000 or 48000 Hz, not 44100 Hz", "--rate", "--format flac"]),
        .init(
            settings: .init(format: .wav, encoding: .alac16), fileName: "a.wav",
            words: ["ALAC is available in CAF only, not WAV; use --format caf"]),
        .init(
            settings: .init(format: .aiff, encoding: .alac24), fileName: "a.aiff",
            words: ["ALAC is available in CAF only, not AIFF"]),
        .init(settings: .init(channels: 0), fileName: "a.flac", words: ["0 channels: use 1 to 32"]),
        .init(settings: .init(format: .wav, channels: 33), fileName: "a.wav", words: ["33 channels: use 1 to 32"]),
        .init(
            settings: .init(sampleRate: 1), fileName: "a.flac",
            words: ["rate 1 Hz is out of range: use 8000 to 384000 Hz"]),
        .init(
            settings: .init(format: .wav, sampleRate: 768_000), fileName: "a.wav",
            words: ["rate 768000 Hz is out of range"]),
        .init(
            settings: .init(format: .flac), fileName: "a.wav",
            words: ["the file name ends in .wav but the format is flac; name it .flac or use --format wav"]),
        .init(
            settings: .init(format: .opus), fileName: "a.ogg",
            words: ["ends in .ogg but the format is opus", "--format ogg"]),
        .init(
            settings: .init(format: .flac, encoding: .float), fileName: "a.flac",
            words: ["FLAC records pcm16 or pcm24, not float", "--encoding pcm16", "--format wav"]),
        .init(
            settings: .init(format: .flac, encoding: .pcm32), fileName: "a.flac",
            words: ["FLAC records pcm16 or pcm24, not pcm32"]),
        .init(
            settings: .init(format: .caf, encoding: .imaAdpcm), fileName: "a.caf",
            words: ["IMA ADPCM is available in WAV only, not CAF; use --format wav"]),
        .init(
            settings: .init(format: .wav, encoding: .vorbis), fileName: "a.wav",
            words: ["Vorbis is available in Ogg Vorbis only, not WAV; use --format ogg"]),
        .init(
            settings: .init(format: .ogg, encoding: .opus), fileName: "a.ogg",
            words: ["Opus is available in Ogg Opus only", "--format opus"]),
        .init(
            settings: .init(format: .wav, encoding: .mp3), fileName: "a.wav",
            words: ["MP3 is available in MP3 only", "--format mp3"]),
        .init(
            settings: .init(format: .flac, channels: 9), fileName: "a.flac",
            words: ["FLAC records at most 8 channels, not 9", "--channels 8", "--format wav"]),
        .init(
            settings: .init(format: .mp3, channels: 6), fileName: "a.mp3",
            words: ["MP3 records at most 2 channels, not 6", "--channels 2", "--format flac"]),
        .init(
            settings: .init(format: .wav, encoding: .imaAdpcm, channels: 4), fileName: "a.wav",
            words: ["IMA ADPCM records at most 2 channels, not 4", "--channels 2"]),
        .init(
            settings: .init(format: .mp3, sampleRate: 96000), fileName: "a.mp3",
            words: ["MP3 records at", "not 96000 Hz", "--rate 48000", "--format flac"]),
        .init(
            settings: .init(format: .ogg, sampleRate: 384_000), fileName: "a.ogg",
            words: ["Ogg Vorbis records at up to 192000 Hz, not 384000 Hz", "--rate 192000"]),
    ]
}

@Suite struct RefusedSettingsTests {
    @Test(arguments: RefusedCase.all)
    func isRefusedWithAHelpfulMessageAndNothingOnDisk(_ refused: RefusedCase) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file(refused.fileName)
        let error = #expect(throws: SettingsError.self) { try refused.settings.validate(path: path) }
        for word in refused.words {
            #expect(error?.message.contains(word) == true, "\(error?.message ?? "no error") lacks \(word)")
        }
        let writerError = #expect(throws: SoundFileError.self) {
            try SoundFileWriter(path: path, settings: refused.settings)
        }
        #expect(writerError?.kind == .unsupported)
        #expect(writerError?.description.contains(refused.words[0]) == true)
        #expect(directory.contents.isEmpty, "created \(directory.contents)")
    }

    @Test func everyAcceptedRateAndChannelCountOpens() throws {
        let directory = try TemporaryDirectory()
        for format in FileFormat.allCases {
            let rates = format.allowedSampleRates ?? [8000, 44100, format.maximumSampleRate]
            for rate in rates {
                for channels in Set([1, format.maximumChannels]) {
                    let settings = RecordingSettings(format: format, sampleRate: rate, channels: channels)
                    let path = directory.file("r\(rate)c\(channels).\(format.fileExtensions.first ?? "x")")
                    let writer = try SoundFileWriter(path: path, settings: settings)
                    try Audio.write(writer, frames: 1000, as: settings.preferredSampleFormat)
                    try writer.close()
                    let reader = try SoundFileReader(path: path)
                    #expect(reader.info.sampleRate == rate, "\(format) at \(rate) Hz")
                    #expect(reader.info.channels == channels, "\(format) with \(channels) channels")
                }
            }
        }
    }
}
