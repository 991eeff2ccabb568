import Foundation
import TestSupport
import Testing

/// FFmpeg is loaded at first use, not at start: the dynamic loader's own trace
/// (`LD_DEBUG=libs`, on standard error) shows which libraries a run loads.
@Suite struct FFmpegAtFirstUseTests {
    /// The soname of the libavformat the system has (`libavformat.so.59`), from `ldconfig -p`.
    static func libavformatSoname(_ sandbox: VoiceMemoSandbox) throws -> String {
        let outcome = try sandbox.shell(
            "PATH=$PATH:/sbin:/usr/sbin ldconfig -p | sed -n 's/^[[:space:]]*\\(libavformat\\.so\\.[0-9][0-9]*\\) .*/\\1/p' | head -1")
        let name = outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(outcome.status == 0 && name.hasPrefix("libavformat.so."), "\(outcome)")
        return name
    }

    /// `--version`, `list` and `list --json` load no FFmpeg library; an M4A recording loads
    /// them and writes AAC in MP4 that ffprobe reads.
    @Test func versionAndListLoadNoFFmpegWhileAnM4ARecordingDoes() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        sandbox.environment["LD_DEBUG"] = "libs"
        for arguments in [["--version"], ["list"], ["list", "--json"]] {
            let outcome = try sandbox.run(arguments: arguments)
            #expect(outcome.status == 0, "\(arguments): \(outcome)")
            // The trace is there (it names libsndfile, linked as usual) …
            #expect(outcome.standardError.contains("libsndfile.so."), "\(arguments): no loader trace")
            // … and names none of FFmpeg's libraries.
            for library in ["libavformat.so.", "libavcodec.so.", "libswresample.so.", "libavutil.so."] {
                #expect(!outcome.standardError.contains(library), "\(arguments) loads \(library)")
            }
        }

        let recorded = try sandbox.run(
            "record", "--source", "tone:440@-6", "--duration", "1", "--format", "m4a", "--title", "Loaded at first use")
        #expect(recorded.status == 0, "\(recorded.status) \(recorded.standardError.suffix(2000))")
        #expect(recorded.standardError.contains("find library=libavformat.so."), "the recording loads libavformat")

        sandbox.environment["LD_DEBUG"] = nil
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(memo["format"] as? String == "m4a" && memo["frames"] as? Int == 48_000, "\(memo)")
        let path = try #require(memo["path"] as? String)
        let probed = try M4ACommandTests.probe(sandbox, path, "stream=codec_name,duration_ts:format_tags=title")
        #expect(probed["codec_name"] == "aac" && probed["TAG:title"] == "Loaded at first use", "\(probed)")
        #expect(probed["duration_ts"].flatMap { Int($0) }.map { abs($0 - 48_000) <= 1024 } == true, "\(probed)")
    }

    /// A libavformat that cannot be loaded (an empty file first on `LD_LIBRARY_PATH`): an M4A
    /// recording is refused before it starts, with an error naming the library, a non-zero
    /// status and no signal, and leaves no memo nor partial file; a WAV recording still works.
    @Test func anUnloadableLibavformatRefusesAnM4ARecordingAndLeavesNoMemo() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let soname = try Self.libavformatSoname(sandbox)
        let bogus = sandbox.directory.path("bogus-ffmpeg")
        try FileManager.default.createDirectory(at: bogus, withIntermediateDirectories: true)
        try Data().write(to: bogus.appendingPathComponent(soname))
        sandbox.environment["LD_LIBRARY_PATH"] = bogus.path

        let refused = try sandbox.run(
            "record", "--source", "tone:440@-6", "--duration", "1", "--format", "m4a", "--title", "Never half")
        #expect(refused.status != 0 && !refused.wasSignalled && !refused.timedOut, "\(refused)")
        #expect(refused.standardError.contains("FFmpeg cannot be loaded"), "\(refused)")
        #expect(refused.standardError.contains(soname), "names \(soname): \(refused)")
        let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.libraryDirectory.path)
            .filter { $0 != ".locks" && !$0.hasPrefix("index.sqlite3") }
        #expect(left.isEmpty, "nothing left in the library: \(left)")
        #expect(try sandbox.listedMemos().isEmpty)

        let wav = try sandbox.run(
            "record", "--source", "tone:440@-6", "--duration", "1", "--format", "wav", "--title", "Still records")
        #expect(wav.status == 0, "\(wav)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(memo["format"] as? String == "wav" && memo["frames"] as? Int == 48_000, "\(memo)")
    }
}
