import Foundation
import SoundFiles
import Testing

/// `--format m4a` (AAC-LC in MP4) through the command line: the config's `format`, `export`,
/// a kill -9 while recording, a full disk; `.m4a` files dropped into the library (a phone's
/// voice memos), and bad ones.
@Suite struct M4ACommandTests {
    /// `ffprobe`'s `key=value` lines for `entries` of the file at `path`.
    static func probe(_ sandbox: VoiceMemoSandbox, _ path: String, _ entries: String) throws -> [String: String] {
        let outcome = try sandbox.shell("ffprobe -v error -show_entries \(entries) -of default=noprint_wrappers=1 \"\(path)\"")
        var values: [String: String] = [:]
        for line in outcome.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        return values
    }

    /// The config's `format = m4a` makes `record` write AAC in MP4 with the title as `©nam`
    /// and the length within one AAC frame; `export --format m4a` converts a FLAC memo.
    @Test func theConfigsFormatAndExportWriteAACInMP4() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        try sandbox.writeConfig("format = m4a\n")
        let recorded = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "2.5", "--channels", "1", "--title", "Config said m4a")
        #expect(recorded.status == 0, "\(recorded)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(memo["format"] as? String == "m4a" && memo["encoding"] as? String == "aac", "\(memo)")
        #expect(memo["frames"] as? Int == 120_000, "\(memo)")
        let path = try #require(memo["path"] as? String)
        #expect(path.hasSuffix(".m4a"))
        let probed = try Self.probe(sandbox, path, "stream=codec_name,profile,duration_ts:format_tags=title,comment")
        #expect(probed["codec_name"] == "aac" && probed["profile"] == "LC", "\(probed)")
        #expect(probed["TAG:title"] == "Config said m4a", "\(probed)")
        #expect(probed["TAG:comment"] == "VoiceMemo memo 1", "\(probed)")
        let frames = try #require(probed["duration_ts"].flatMap { Int($0) }, "\(probed)")
        #expect(abs(frames - 120_000) <= 1024, "ffprobe reads \(frames) frames")

        let flac = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "1", "--format", "flac", "--title", "Lossless")
        #expect(flac.status == 0, "\(flac)")
        let exported = try sandbox.run("export", "Lossless", "--format", "m4a", sandbox.file("out.m4a"))
        #expect(exported.status == 0, "\(exported)")
        let out = try Self.probe(sandbox, sandbox.file("out.m4a"), "stream=codec_name,duration_ts:format_tags=title")
        #expect(out["codec_name"] == "aac" && out["TAG:title"] == "Lossless", "\(out)")
        #expect(out["duration_ts"].flatMap { Int($0) }.map { abs($0 - 48_000) <= 1024 } == true, "\(out)")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: sandbox.libraryDirectory.path).filter { $0.hasPrefix(".") && $0 != ".locks" }
        #expect(hidden.isEmpty, "nothing left beside the memos: \(hidden)")
    }

    /// kill -9 while an M4A memo records (real time, encoded as it records into the hidden
    /// file): the .m4a does not exist yet, the intermediate does; `list` recovers a complete
    /// memo that ffmpeg decodes without an error, holding everything recorded 0.5 s before
    /// the kill (from the product's own `recorded FRAMES` events).
    @Test func killedDuringAnM4ARecordingIsRecoveredWhole() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_EVENT_LOG"] = sandbox.file("events.log")
        let killed = try sandbox.shell("""
            voicememo record --source tone:440@-6 --format m4a --channels 1 --title "Killed m4a" > id.txt 2> err.txt &
            pid=$!
            # 1.5 s recorded (the writer's own count), 20 s at most.
            deadline=$(( $(date +%s) + 20 ))
            until [ "$(awk '$1 == "recorded" { n = $2 } END { print n + 0 }' events.log 2>/dev/null)" -ge 72000 ]; do
                kill -0 $pid 2>/dev/null || { cat err.txt >&2; exit 3; }
                [ $(date +%s) -lt $deadline ] || { echo "no 1.5 s recorded in 20 s" >&2; kill -9 $pid; exit 4; }
                sleep 0.02
            done
            kill -9 $pid
            wait $pid 2>/dev/null
            awk '$1 == "recorded" { n = $2 } END { print "logged=" n }' events.log
            ls -a "$VOICEMEMO_HOME"
            """, timeout: .seconds(60))
        #expect(killed.status == 0, "\(killed)")
        #expect(killed.standardOutput.contains(".partial.w64"), "the intermediate is kept: \(killed)")
        #expect(killed.standardOutput.contains(".m4a.encoding.m4a"), "encoded while recording: \(killed)")
        #expect(!killed.standardOutput.split(separator: "\n").contains { $0.hasSuffix(".m4a") && !$0.hasPrefix(".") },
            "no .m4a before it is complete: \(killed)")
        let logged = try #require(killed.standardOutput.split(separator: "\n").first { $0.hasPrefix("logged=") }
            .flatMap { Int($0.dropFirst("logged=".count)) }, "\(killed)")

        let list = try sandbox.run("list", "--json")
        #expect(list.status == 0, "\(list)")
        #expect(list.standardError.contains("1 memo recovered after a crash: 1"), "\(list)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(memo["state"] as? String == "recovered" && memo["title"] as? String == "Killed m4a", "\(memo)")
        let frames = try #require(memo["frames"] as? Int)
        let path = try #require(memo["path"] as? String)
        print("M4ACommandTests: kill -9 after \(logged) frames recorded (event log); recovered \(frames) frames")
        #expect(frames >= logged - 24_000, "lost more than 0.5 s: \(logged) logged, \(frames) recovered")
        let decoded = try sandbox.shell("ffmpeg -v error -i \"\(path)\" -f null - && echo decoded")
        #expect(decoded.standardOutput.contains("decoded") && decoded.standardError.isEmpty, "\(decoded)")
        let probed = try Self.probe(sandbox, path, "stream=codec_name,duration_ts:format_tags=title")
        #expect(probed["codec_name"] == "aac" && probed["TAG:title"] == "Killed m4a", "\(probed)")
        #expect(probed["duration_ts"].flatMap { Int($0) }.map { abs($0 - frames) <= 1024 } == true, "\(probed)")
        let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.libraryDirectory.path)
        #expect(!left.contains { $0.hasSuffix(".partial.w64") || $0.hasSuffix(".encoding.m4a") || $0.hasSuffix(".partial.json") }, "\(left)")
    }

    /// An M4A recording on a full disk (a 1 MiB tmpfs) stops naming the cause, and the memo is
    /// complete: an AAC file as long as the index says.
    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"))
    func aFullDiskStopsAnM4ARecordingNamingTheCauseAndKeepsTheAudio() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.onTmpfs(size: "1m", """
              voicememo record --source tone:440@-6 --format m4a --duration 60 --title "Filled with AAC" > id.txt 2> record.err
              echo "record=$?"
              voicememo list --json > list.json 2> list.err; echo "list=$?"
              cp mnt/library/*.m4a full.m4a
              ls -a mnt/library
            """)
        #expect(outcome.standardOutput.contains("record=1"), "\(outcome)")
        let message = try String(contentsOfFile: sandbox.file("record.err"), encoding: .utf8)
        #expect(message.contains("the disk is full") && message.contains("No space left on device (ENOSPC)"), "\(message)")
        #expect(outcome.standardOutput.contains("list=0"), "\(outcome)")
        let list = try String(contentsOfFile: sandbox.file("list.json"), encoding: .utf8)
        let memo = try #require((try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]])?.first, "\(list)")
        #expect(memo["state"] as? String == "complete" && memo["format"] as? String == "m4a", "\(memo)")
        let frames = try #require(memo["frames"] as? Int)
        let probed = try Self.probe(sandbox, sandbox.file("full.m4a"), "stream=codec_name,duration_ts")
        print("M4ACommandTests: 1 MiB tmpfs: \(Double(frames) / 48_000) s of M4A kept; record said \(message.debugDescription)")
        #expect(frames > 48_000, "what was written is kept: \(frames) frames")
        #expect(probed["codec_name"] == "aac", "\(probed)")
        #expect(probed["duration_ts"].flatMap { Int($0) }.map { abs($0 - frames) <= 1024 } == true, "\(probed)")
        #expect(!outcome.standardOutput.contains(".partial.w64"), "nothing left to recover: \(outcome)")
    }
}
