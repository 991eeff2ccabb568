import TestSupport
import Foundation
import Testing

@testable import SoundFiles

@Suite struct MetadataTests {
    static let written = SoundFileMetadata(
        title: "Standup notes — ünïcode", comment: "first take", date: "2026-11-29T14:03:00Z", software: "voicememo")

    @Test(arguments: FileFormat.allCases)
    func tagsRoundTrip(format: FileFormat) throws {
        let directory = try TemporaryDirectory()
        let settings = RecordingSettings(format: format)
        let path = directory.file("memo." + (format.fileExtensions.first ?? "x"))
        let writer = try SoundFileWriter(path: path, settings: settings, metadata: Self.written)
        try Audio.write(writer, frames: 4800, as: settings.preferredSampleFormat)
        try writer.close()
        let read = try SoundFileReader(path: path).metadata

        #expect(read.title == Self.written.title)
        #expect(read.comment == Self.written.comment)
        switch format {
        case .aiff:
            #expect(read.date == nil, "AIFF has no date field")
        case .mp3:
            #expect(read.date == "2026", "ID3 keeps the year only")
        default:
            #expect(read.date == Self.written.date)
        }
        if format == .mp3 {
            #expect(read.software == nil, "libsndfile writes no software tag to MP3")
        } else {
            #expect(read.software?.hasPrefix("voicememo") == true, "libsndfile appends its version")
        }
    }

    /// The hand-made date tag is exactly what ISO8601DateFormatter writes (what older files carry).
    @Test(arguments: [0.0, 951_782_400.9, 1_795_702_992.0, 4_102_444_799.5, -86_400.25])
    func dateTagMatchesISO8601DateFormatter(_ seconds: Double) {
        let expected = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds))
        #expect(SoundFileMetadata.dateText(secondsSince1970: seconds) == expected)
    }

    @Test func noTagsMeansNoneRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("memo.wav")
        let writer = try SoundFileWriter(path: path, settings: RecordingSettings(format: .wav))
        try Audio.write(writer, frames: 4800, as: .int16)
        try writer.close()
        let read = try SoundFileReader(path: path).metadata
        #expect(read.title == nil)
        #expect(read.comment == nil)
    }
}
