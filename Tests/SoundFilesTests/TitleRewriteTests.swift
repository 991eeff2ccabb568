import TestSupport
import Foundation
import Testing

@testable import SoundFiles

/// `TitleRewrite`: a copy with a new title, the audio untouched, for every format.
@Suite struct TitleRewriteTests {
    static let metadata = SoundFileMetadata(title: "Old", comment: "VoiceMemo memo 7", date: "2026-11-29T14:03:12Z")

    @Test(arguments: FileFormat.allCases)
    func everyFormatGetsTheNewTitleAndKeepsItsAudio(format: FileFormat) throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("a.\(format.fileExtensions[0])")
        let copy = directory.file("b.\(format.fileExtensions[0])")
        let settings = RecordingSettings(format: format, sampleRate: 48000, channels: 2)
        let writer = try SoundFileWriter(path: source, settings: settings, metadata: Self.metadata)
        try Audio.write(writer, frames: 48_000, as: .float32)
        try writer.close()

        let method = try TitleRewrite.copy(source, to: copy, title: "New")
        #expect(method == TitleRewrite.method(format: format, encoding: settings.encoding))
        let before = try SoundFileReader(path: source)
        let after = try SoundFileReader(path: copy)
        #expect(after.metadata.title == "New")
        #expect(after.metadata.comment == Self.metadata.comment, "other tags kept")
        #expect(after.info.frames == before.info.frames)
        #expect(
            try Audio.readAll(after, as: .int32, Int32.self) == Audio.readAll(before, as: .int32, Int32.self),
            "\(format): decoded samples identical (\(method))")
        #expect(before.metadata.title == "Old", "the source is not touched")
    }

    @Test(arguments: [FileFormat.ogg, .opus])
    func oggAudioPagesAreCopiedAsTheyAreEvenWhenTheHeaderGrows(format: FileFormat) throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("a.\(format.fileExtensions[0])")
        let writer = try SoundFileWriter(
            path: source, settings: RecordingSettings(format: format, sampleRate: 48000, channels: 1), metadata: Self.metadata)
        try Audio.write(writer, frames: 96_000, as: .float32)
        try writer.close()
        // 500 four-byte characters: 2 kB more comment, so the header needs another page.
        for (name, title) in [("short", "T"), ("long", String(repeating: "😀", count: 500)), ("huge", String(repeating: "x", count: 70_000))] {
            let copy = directory.file("\(name).\(format.fileExtensions[0])")
            try TitleRewrite.copy(source, to: copy, title: title)
            let reader = try SoundFileReader(path: copy)
            #expect(reader.metadata.title == title, "\(name)")
            #expect(
                try Audio.readAll(reader, as: .float32, Float.self) == Audio.readAll(SoundFileReader(path: source), as: .float32, Float.self))
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: copy)))
            #expect(Self.pagesHaveValidChecksums(bytes), "\(name): every page's CRC and sequence number checks")
        }
    }

    @Test func badInputIsRefusedWithoutWritingAnything() throws {
        let directory = try TemporaryDirectory()
        let text = directory.file("text.ogg")
        try Data("OggS but not really".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: SoundFileError.self) { try TitleRewrite.copy(text, to: directory.file("out.ogg"), title: "x") }
        #expect(throws: SoundFileError.self) { try TitleRewrite.copy(directory.file("none.wav"), to: directory.file("out.wav"), title: "x") }

        let adpcm = directory.file("adpcm.wav")
        let writer = try SoundFileWriter(
            path: adpcm, settings: RecordingSettings(format: .wav, encoding: .imaAdpcm, sampleRate: 8000, channels: 1))
        try Audio.write(writer, frames: 8000, as: .int16)
        try writer.close()
        do {
            try TitleRewrite.copy(adpcm, to: directory.file("out.wav"), title: "x")
            Issue.record("IMA ADPCM was re-encoded")
        } catch {
            #expect(error.kind == .unsupported)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("out.wav")))

        let truncated = directory.file("truncated.ogg")
        let good = directory.file("good.ogg")
        let vorbis = try SoundFileWriter(path: good, settings: RecordingSettings(format: .ogg, sampleRate: 48000, channels: 1))
        try Audio.write(vorbis, frames: 4800, as: .float32)
        try vorbis.close()
        try Data(try Data(contentsOf: URL(fileURLWithPath: good)).prefix(200)).write(to: URL(fileURLWithPath: truncated))
        #expect(throws: SoundFileError.self) { try TitleRewrite.copy(truncated, to: directory.file("t2.ogg"), title: "x") }
    }

    @Test func mp3TitlesAreCutAtACharacterBoundary() {
        #expect(ID3v1Title.field("short").count == 30)
        let cut = ID3v1Title.field(String(repeating: "会", count: 20))
        #expect(String(decoding: cut.prefix { $0 != 0 }, as: UTF8.self) == String(repeating: "会", count: 10))
    }

    /// Whether every Ogg page's checksum matches and sequence numbers count up from 0.
    static func pagesHaveValidChecksums(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        var expectedSequence: UInt32 = 0
        while offset < bytes.count {
            guard offset + 27 <= bytes.count else { return false }
            let segments = Int(bytes[offset + 26])
            let body = bytes[(offset + 27)..<(offset + 27 + segments)].reduce(0) { $0 + Int($1) }
            let length = 27 + segments + body
            var page = Array(bytes[offset..<(offset + length)])
            let stored = (0..<4).reduce(UInt32(0)) { $0 | UInt32(page[22 + $1]) << (8 * $1) }
            let sequence = (0..<4).reduce(UInt32(0)) { $0 | UInt32(page[18 + $1]) << (8 * $1) }
            for index in 22..<26 { page[index] = 0 }
            guard OggCommentRewrite.crc(page) == stored, sequence == expectedSequence else { return false }
            expectedSequence += 1
            offset += length
        }
        return true
    }
}
