import Foundation
import Testing

/// Mutated sound files of every format (a few hundred, from a fixed seed) dropped into a
/// library and put through list, analyze, play, export to every format, trim, enhance and
/// transcribe (`Tests/fuzz-library.py`): no command ends by a signal or a trap (132, 134,
/// 139), none hangs past its limit, none uses more than 200 MB, nothing outside the library
/// and the export folder is written, and the library still lists.
@Suite struct FuzzedLibraryTests {
    static let formats = ["wav", "flac", "ogg", "opus", "mp3", "m4a", "caf", "aiff"]

    @Test func mutatedFilesOfEveryFormatCrashNothingAndStayInTheLibrary() throws {
        let sandbox = try VoiceMemoSandbox()
        let seeds = sandbox.file("seeds")
        try FileManager.default.createDirectory(atPath: seeds, withIntermediateDirectories: true)
        var environment = sandbox.environment
        environment["VOICEMEMO_UNPACED"] = "1"
        let binary = try VoiceMemoBinary.url()
        let recordings = Self.formats.map { ($0, ["--format", $0, "--channels", "1"]) }
            + [("float.wav", ["--format", "wav", "--encoding", "float"])]
        for (name, settings) in recordings {
            let made = try ProcessRunner.run(
                binary,
                arguments: ["record", "--source", "tone:440@-6", "--duration", "1", "--output", seeds + "/seed." + name] + settings,
                environment: environment, timeout: .seconds(30))
            try #require(made.status == 0, "\(name): \(made)")
        }
        let script = TestResources.url("../Tests/fuzz-library.py").standardizedFileURL.path
        let work = sandbox.file("fuzz")
        try FileManager.default.createDirectory(atPath: work + "/library", withIntermediateDirectories: true)
        let outcome = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            arguments: [script, binary.path, seeds, work, "--per-format", "25", "--seed", "20261206"],
            environment: sandbox.environment, timeout: .seconds(900))
        try #require(outcome.status == 0, "\(outcome)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any], "\(outcome)")
        #expect(report["files"] as? Int == 25 * recordings.count, "\(report)")
        #expect(report["first_list_status"] as? Int == 0 && report["last_list_status"] as? Int == 0, "\(report)")
        #expect((report["commands"] as? Int ?? 0) > 400, "\(report)")
        let findings = report["findings"] as? [[String: Any]] ?? []
        #expect(findings.isEmpty, "\(findings.prefix(10))")
        let rss = report["max_rss_kb"] as? Int ?? .max
        #expect(rss <= 200 * 1024, "\(rss) kB at most, by \(report["max_rss_command"] ?? "?")")
        #expect((report["outside_changed"] as? [Any])?.isEmpty == true, "\(report["outside_changed"] ?? "?")")
    }
}
