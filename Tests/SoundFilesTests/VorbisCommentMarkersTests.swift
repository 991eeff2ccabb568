import TestSupport
import Foundation
import Testing

@testable import SoundFiles

/// Markers as Vorbis chapter comments (FLAC, Ogg Vorbis, Ogg Opus): the entries' form, what a
/// hand-edited or foreign file may hold, and files that are not what their name says.
@Suite struct VorbisCommentMarkersTests {
    @Test func chaptersAreWrittenInTheFormPlayersReadAndReadBack() throws {
        let list = VorbisComments(vendor: Array("v".utf8), entries: [Array("TITLE=Talk".utf8), Array("chapter001=00:00:09.000".utf8)])
        let markers = [FileMarker(frame: 48_000 * 3725 + 24, label: "a=b\nc"), FileMarker(frame: 0, label: "")]
        let written = list.replacingMarkers(markers.sorted { $0.frame < $1.frame }, sampleRate: 48_000)
        let text = written.entries.map { String(decoding: $0, as: UTF8.self) }
        #expect(text == ["TITLE=Talk", "CHAPTER001=00:00:00.000", "CHAPTER002=01:02:05.001", "CHAPTER002NAME=a=b\nc"],
            "the old chapter replaced (names are case-insensitive), the other tags kept")
        let (parsed, length) = try #require(VorbisComments.parse(written.bytes[...]))
        #expect(length == written.bytes.count && parsed == written)
        #expect(parsed.markers(sampleRate: 48_000) == [FileMarker(frame: 0, label: ""), FileMarker(frame: 178_800_048, label: "a=b\nc")],
            "to the millisecond")
    }

    @Test func malformedChaptersAreLeftOut() {
        let entries = ["CHAPTER001=1:2", "CHAPTER002=00:61:00.000", "CHAPTER003=-0:00:01.0", "CHAPTER004=00:00:01.5",
                       "CHAPTER004NAME=kept", "CHAPTERX=00:00:02.000", "CHAPTER005NAME=no time", "=", "noequals"]
        let list = VorbisComments(vendor: [], entries: entries.map { Array($0.utf8) })
        #expect(list.markers(sampleRate: 1000) == [FileMarker(frame: 1500, label: "kept")])
        #expect(VorbisComments.parse([1, 0, 0][...]) == nil, "a truncated list")
        #expect(VorbisComments.parse([0, 0, 0, 0, 255, 255, 255, 255][...]) == nil, "a count past the end")
    }

    @Test func aFileThatIsNotWhatItsNameSaysIsRefusedAndNothingIsWritten() throws {
        let folder = try TemporaryDirectory()
        let fake = folder.file("fake.flac")
        try Data("not a flac file at all".utf8).write(to: URL(fileURLWithPath: fake))
        for format in [FileFormat.flac, .ogg] {
            let destination = folder.file("out-\(format.rawValue)")
            #expect(throws: SoundFileError.self) {
                try FileMarkers.copy([FileMarker(frame: 1, label: "")], from: fake, to: destination, format: format)
            }
            #expect(!FileManager.default.fileExists(atPath: destination))
            #expect(FileMarkers.read(from: fake, format: format) == nil)
        }
        #expect(throws: SoundFileError.self) {
            try FileMarkers.copy([], from: fake, to: folder.file("mp3"), format: .mp3)
        }
    }
}
