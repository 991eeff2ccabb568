import TestSupport
import Foundation
import SoundFiles
import Testing

/// An RF64 `.wav` (the header of a WAV past 4 GiB; FFmpeg's `-rf64 always` writes it for any
/// length) dropped into the library is a memo like any WAV: adopted, listed, played, exported,
/// trimmed and retitled in place.
@Suite struct RF64LibraryTests {
    @Test func anRF64DroppedIntoTheLibraryIsAdoptedPlayedExportedTrimmedAndRetitled() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.installALSATestDevices(captureFile: "/dev/null", playbackFile: sandbox.file("played.raw"))
        let dropped = sandbox.libraryDirectory.appendingPathComponent("dropped.wav").path
        let made = try Tool.output("/usr/bin/ffmpeg", [
            "-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=3:sample_rate=48000", "-ac", "2", "-c:a", "pcm_s16le",
            "-rf64", "always", "-metadata", "title=Dropped", dropped,
        ])
        #expect(made.isEmpty)
        #expect(FourGiBRecordingTests.ascii(try FourGiBRecordingTests.bytes(of: dropped, at: 0, count: 4), 0) == "RF64")
        let samples = try Tool.output("/usr/bin/ffmpeg", ["-v", "error", "-i", dropped, "-f", "s16le", "-"])
        #expect(samples.count == 144_000 * 4)

        let memo = try #require(try StreamTestServer.memos(sandbox).first)
        #expect(memo["format"] as? String == "wav", "\(memo)")
        #expect(memo["encoding"] as? String == "pcm16", "\(memo)")
        #expect(memo["frames"] as? Int == 144_000, "\(memo)")
        #expect(memo["state"] as? String == "complete", "\(memo)")
        #expect(memo["title"] as? String == "Dropped", "\(memo)")

        let played = try sandbox.run("play", "1", "--device", "voicememo_playback")
        #expect(played.status == 0, "\(played)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.file("played.raw"))) == samples, "played sample for sample")

        let exported = try sandbox.run("export", "1", sandbox.file("out.flac"))
        #expect(exported.status == 0, "\(exported)")
        #expect(try Tool.output("/usr/bin/sox", [sandbox.file("out.flac"), "-t", "raw", "-"]) == samples)

        let inode = try FourGiBRecordingTests.inode(of: dropped)
        let renamed = try sandbox.run("rename", "1", "Renamed in place")
        #expect(renamed.status == 0, "\(renamed)")
        #expect(try FourGiBRecordingTests.inode(of: dropped) == inode, "the title was written into the file, not a copy")
        #expect(try SoundFileReader(path: dropped).metadata.title == "Renamed in place")
        #expect(try Tool.output("/usr/bin/ffmpeg", ["-v", "error", "-i", dropped, "-f", "s16le", "-"]) == samples)

        let trimmed = try sandbox.run("trim", "1", "--from", "1", "--to", "2")
        #expect(trimmed.status == 0, "\(trimmed)")
        let second = try #require(try StreamTestServer.memos(sandbox).first { ($0["id"] as? Int) == 2 })
        #expect(second["frames"] as? Int == 48_000, "\(second)")
        let secondPath = try #require(second["path"] as? String)
        #expect(try Tool.output("/usr/bin/sox", [secondPath, "-t", "raw", "-"]) == samples[(48_000 * 4)..<(96_000 * 4)])
    }
}
