import TestSupport
import Foundation
import Testing

@testable import SoundFiles

/// `FileMarkers`: markers written into a finished WAV or AIFF in place, read back by us and by
/// libsndfile's own tools; a crash after any step leaves the audio whole with the old or the new
/// markers.
@Suite struct FileMarkersTests {
    static let metadata = SoundFileMetadata(title: "Old", comment: "VoiceMemo memo 7", date: "2026-11-29T14:03:12Z")
    static let first = [FileMarker(frame: 24_000, label: "intro"), FileMarker(frame: 4_800, label: "")]
    static let second = [
        FileMarker(frame: 100, label: "zweite Frage 🎙️"), FileMarker(frame: 30_000, label: "b"),
        FileMarker(frame: 48_001, label: "end"),
    ]

    private func makeFile(_ format: FileFormat, in directory: TemporaryDirectory, frames: Int = 48_001) throws -> String {
        let path = directory.file("a." + (format.fileExtensions.first ?? format.rawValue))
        let encoding: Encoding = format == .flac ? .pcm16 : .pcm24
        let settings = RecordingSettings(format: format, encoding: encoding, sampleRate: 48000, channels: 1)
        let writer = try SoundFileWriter(path: path, settings: settings, metadata: Self.metadata)
        try Audio.write(writer, frames: frames, as: .float32)
        try writer.close()
        return path
    }

    private func sorted(_ markers: [FileMarker]) -> [FileMarker] { markers.sorted { $0.frame < $1.frame } }

    /// `sndfile-info`'s cue lines: libsndfile's own reading of the points (positions only).
    private func sndfileInfoCueOffsets(_ path: String) throws -> [Int64] {
        let text = try Tool.run("/usr/bin/sndfile-info", [path]).text
        // WAV: "Cue ID :  1  Pos : 24000 ... Offset : 24000"; AIFF: "Mark ID : 1 ... Position : 24000".
        var offsets: [Int64] = []
        let lastChunk = text.components(separatedBy: path.hasSuffix(".wav") ? "cue  :" : "MARK :").last ?? ""
        for line in lastChunk.split(separator: "\n") {
            if let range = line.range(of: "Offset : ") ?? line.range(of: "Position : ") {
                let digits = line[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
                if let value = Int64(digits) { offsets.append(value) }
            }
        }
        return offsets
    }

    @Test(arguments: [FileFormat.wav, .aiff])
    func markersGoInAndComeBackWithTheAudioUntouched(format: FileFormat) throws {
        let directory = try TemporaryDirectory()
        let path = try makeFile(format, in: directory)
        let before = try Audio.readAll(SoundFileReader(path: path), as: .int32, Int32.self)
        #expect(FileMarkers.read(from: path, format: format) == [])
        #expect(try FileMarkers.write(Self.first, to: path, format: format))
        #expect(FileMarkers.read(from: path, format: format) == sorted(Self.first))
        #expect(try FileMarkers.write(Self.second, to: path, format: format))
        #expect(FileMarkers.read(from: path, format: format) == Self.second, "the later set replaces the earlier")
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.frames == 48_001)
        #expect(try Audio.readAll(reader, as: .int32, Int32.self) == before)
        #expect(reader.metadata.title == "Old")
        #expect(try sndfileInfoCueOffsets(path) == Self.second.map(\.frame), "libsndfile reads the points")
    }

    @Test(arguments: [1, 2, 3])
    func aCrashAfterAnyStepLeavesTheAudioAndOneOfTheSets(lastStep: Int) throws {
        for format in [FileFormat.wav, .aiff] {
            let directory = try TemporaryDirectory()
            let path = try makeFile(format, in: directory)
            let before = try Audio.readAll(SoundFileReader(path: path), as: .int32, Int32.self)
            #expect(try FileMarkers.write(Self.first, to: path, format: format))
            #expect(try FileMarkers.write(Self.second, to: path, format: format, lastStep: lastStep))
            let reader = try SoundFileReader(path: path)
            #expect(try Audio.readAll(reader, as: .int32, Int32.self) == before, "\(format) step \(lastStep): audio whole")
            let read = FileMarkers.read(from: path, format: format)
            if lastStep == 1 {
                #expect(read == sorted(Self.first), "\(format): the old set until the size covers the new one")
            } else {
                #expect(read == Self.second, "\(format) step \(lastStep): the last set in the file wins")
            }
            // The next write finds a file it can change, whatever step the last one stopped at.
            #expect(try FileMarkers.write(Self.second, to: path, format: format))
            #expect(FileMarkers.read(from: path, format: format) == Self.second)
        }
    }

    @Test func aRenameInPlaceKeepsTheMarkersAndMarkersKeepTheTitle() throws {
        let directory = try TemporaryDirectory()
        let path = try makeFile(.wav, in: directory)
        #expect(try FileMarkers.write(Self.second, to: path, format: .wav))
        #expect(try WAVTitleInPlace.retitle(path, title: "New"))
        #expect(FileMarkers.read(from: path, format: .wav) == Self.second)
        #expect(try FileMarkers.write(Self.first, to: path, format: .wav))
        #expect(try SoundFileReader(path: path).metadata.title == "New")
        #expect(TitleRewrite.canRetitleInPlace(path), "markers keep the layout a rename changes in place")
    }

    @Test func filesWithoutAPlaceOrNotLaidOutForItAreLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let caf = try makeFile(.caf, in: directory)
        let cafBytes = try Data(contentsOf: URL(fileURLWithPath: caf))
        #expect(!FileMarkers.canHold(.caf) && !FileMarkers.canHold(.mp3))
        #expect(try !FileMarkers.write(Self.first, to: caf, format: .caf))
        #expect(FileMarkers.read(from: caf, format: .caf) == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: caf)) == cafBytes)
        // FLAC holds them, but not in place: `write` changes nothing, `copy` does the job.
        let flac = try makeFile(.flac, in: directory)
        let flacBytes = try Data(contentsOf: URL(fileURLWithPath: flac))
        #expect(FileMarkers.canHold(.flac) && FileMarkers.isWrittenAsCopy(.flac))
        #expect(try !FileMarkers.write(Self.first, to: flac, format: .flac))
        #expect(try Data(contentsOf: URL(fileURLWithPath: flac)) == flacBytes)
        let wav = try makeFile(.wav, in: directory)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: wav))
        bytes.append(contentsOf: [1, 2, 3])  // trailing bytes the RIFF size does not cover
        try bytes.write(to: URL(fileURLWithPath: wav))
        #expect(try !FileMarkers.write(Self.first, to: wav, format: .wav))
        #expect(try Data(contentsOf: URL(fileURLWithPath: wav)) == bytes, "unchanged")
        #expect(FileMarkers.read(from: wav, format: .wav) == nil)
        // Not a WAV at all, and a file that is gone: errors, never a trap.
        let text = directory.file("notes.wav")
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: text))
        #expect(try !FileMarkers.write(Self.first, to: text, format: .wav))
        #expect(FileMarkers.read(from: text, format: .wav) == nil)
        #expect(throws: SoundFileError.self) { try FileMarkers.write(Self.first, to: directory.file("gone.wav"), format: .wav) }
    }

    @Test func aDamagedCueChunkReadsAsWhatItHolds() throws {
        // A cue chunk claiming more points than it has, and a labl running past its list.
        var cue = FileMarkers.wavChunks([FileMarker(frame: 10, label: "x")])
        cue.replaceSubrange(8..<12, with: IFFChunksInPlace.bytes(UInt32(1000), bigEndian: false))
        let markers = FileMarkers.wavMarkers(cue: cue.subdata(in: 8..<(8 + 28)), adtl: Data("adtllabl\u{FF}\u{FF}".utf8))
        #expect(markers == [FileMarker(frame: 10, label: "")])
        #expect(FileMarkers.aiffMarkers(Data([0, 5, 0, 1, 0, 0, 0, 9, 200])) == [])
    }

    @Test func anAIFFLabelIsCutAt255BytesOnACharacterBoundary() throws {
        let directory = try TemporaryDirectory()
        let path = try makeFile(.aiff, in: directory)
        let long = String(repeating: "é", count: 200)  // 400 bytes
        #expect(try FileMarkers.write([FileMarker(frame: 5, label: long)], to: path, format: .aiff))
        let label = try #require(FileMarkers.read(from: path, format: .aiff)?.first?.label)
        #expect(label == String(repeating: "é", count: 127))
    }
}
