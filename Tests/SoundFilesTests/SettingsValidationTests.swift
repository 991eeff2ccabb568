import Foundation
import Testing

@testable import SoundFiles

@Suite struct SettingsValidationTests {
    @Test func defaultsAreFLACAt48kHzStereo() throws {
        let settings = RecordingSettings()
        #expect(settings.format == .flac)
        #expect(settings.encoding == .pcm16)
        #expect(settings.sampleRate == 48000)
        #expect(settings.channels == 2)
        try settings.validate(path: "memo.flac")
    }

    @Test(arguments: FileFormat.allCases)
    func everyFormatHasAValidDefaultEncoding(format: FileFormat) throws {
        let settings = RecordingSettings(format: format)
        #expect(format.encodings.contains(settings.encoding))
        try settings.validate(path: "memo." + (format.fileExtensions.first ?? ""))
    }

    @Test func defaultEncodings() {
        #expect(RecordingSettings(format: .wav).encoding == .pcm16)
        #expect(RecordingSettings(format: .ogg).encoding == .vorbis)
        #expect(RecordingSettings(format: .opus).encoding == .opus)
        #expect(RecordingSettings(format: .mp3).encoding == .mp3)
    }

    @Test func inferredFromPath() {
        #expect(RecordingSettings.inferred(fromPath: "a.wav") == .wav)
        #expect(RecordingSettings.inferred(fromPath: "/x/y/B.FLAC") == .flac)
        #expect(RecordingSettings.inferred(fromPath: "a.oga") == .ogg)
        #expect(RecordingSettings.inferred(fromPath: "a.ogg") == .ogg)
        #expect(RecordingSettings.inferred(fromPath: "a.opus") == .opus)
        #expect(RecordingSettings.inferred(fromPath: "a.aif") == .aiff)
        #expect(RecordingSettings.inferred(fromPath: "a.caf") == .caf)
        #expect(RecordingSettings.inferred(fromPath: "a.mp3") == .mp3)
        #expect(RecordingSettings.inferred(fromPath: "a.raw") == nil)
        #expect(RecordingSettings.inferred(fromPath: "noextension") == nil)
        #expect(RecordingSettings.inferred(fromPath: ".hidden") == nil)
        #expect(RecordingSettings.inferred(fromPath: "dir.wav/file") == nil)
    }

    @Test func preferredSampleFormats() {
        #expect(RecordingSettings(format: .wav, encoding: .pcm16).preferredSampleFormat == .int16)
        #expect(RecordingSettings(format: .wav, encoding: .ulaw).preferredSampleFormat == .int16)
        #expect(RecordingSettings(format: .wav, encoding: .imaAdpcm).preferredSampleFormat == .int16)
        #expect(RecordingSettings(format: .caf, encoding: .alac16).preferredSampleFormat == .int16)
        #expect(RecordingSettings(format: .wav, encoding: .pcm24).preferredSampleFormat == .int32)
        #expect(RecordingSettings(format: .wav, encoding: .pcm32).preferredSampleFormat == .int32)
        #expect(RecordingSettings(format: .caf, encoding: .alac24).preferredSampleFormat == .int32)
        #expect(RecordingSettings(format: .wav, encoding: .float).preferredSampleFormat == .float32)
        #expect(RecordingSettings(format: .ogg).preferredSampleFormat == .float32)
        #expect(RecordingSettings(format: .opus).preferredSampleFormat == .float32)
        #expect(RecordingSettings(format: .mp3).preferredSampleFormat == .float32)
    }

    @Test func crashSafetyPerFormat() {
        #expect(RecordingSettings(format: .wav).crashSafety == .headerUpdatedOnWrite)
        #expect(RecordingSettings(format: .aiff).crashSafety == .headerUpdatedOnWrite)
        #expect(RecordingSettings(format: .caf).crashSafety == .headerUpdatedOnWrite)
        #expect(RecordingSettings(format: .caf, encoding: .alac16).crashSafety == .intermediate)
        #expect(RecordingSettings(format: .caf, encoding: .alac24).crashSafety == .intermediate)
        #expect(RecordingSettings(format: .flac).crashSafety == .streaming)
        #expect(RecordingSettings(format: .opus).crashSafety == .streaming)
        #expect(RecordingSettings(format: .ogg).crashSafety == .intermediate)
        #expect(RecordingSettings(format: .mp3).crashSafety == .intermediate)
    }

    @Test func intermediateIsHiddenBesideTheTarget() {
        #expect(SoundFileRecovery.intermediatePath(for: "/m/memo.ogg") == "/m/.memo.ogg.partial.w64")
    }
}
