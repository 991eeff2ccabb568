import Foundation
import Testing

/// Export paths that cannot surprise. Every destination is checked
/// before anything is written; a missing folder is named in words, never with a hidden
/// temporary name or Foundation's error text; a folder gets `<title>.<ext>`; a name without a
/// sound file extension gets the format's.
@Suite struct ExportPathTests {
    private func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    private func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// What no message may hold: Foundation's text, hidden temporary names.
    private func expectNoInternals(_ outcome: ProcessOutcome, sourceLocation: SourceLocation = #_sourceLocation) {
        for leak in ["NSCocoaErrorDomain", "NSPOSIXErrorDomain", "Error Domain", ".export-", ".labels-", ".partial", "UserInfo"] {
            #expect(!outcome.standardError.contains(leak), "\(leak): \(outcome.standardError)", sourceLocation: sourceLocation)
        }
    }

    /// A memo with a marker, so a label track has a line to write.
    private func markedMemo(_ sandbox: VoiceMemoSandbox, title: String = "Standup") throws -> String {
        let id = try sandbox.recordMemo(title: title, format: "flac", seconds: "1")
        #expect(try sandbox.run("mark", id, "0.5", "--label", "here").status == 0)
        return id
    }

    // MARK: 4. --labels is checked with the audio, before either is written

    @Test func labelsOnTheAudioCopysOwnFileAreRefusedAndNothingIsWritten() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try markedMemo(sandbox)
        let same = sandbox.file("same.flac")
        let forced = try sandbox.run("export", id, same, "--labels", same, "--force")
        #expect(forced.status == 1, "\(forced)")
        #expect(forced.standardError.contains("that is the file the audio copy goes to"), "\(forced)")
        #expect(!exists(same), "nothing written")
        let unforced = try sandbox.run("export", id, same, "--labels", same)
        #expect(unforced.status == 1 && !exists(same), "\(unforced)")

        // An existing file stays as it was, also behind a link or a hard link.
        try Data("precious".utf8).write(to: URL(fileURLWithPath: same))
        let link = sandbox.file("labels-link.txt")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: same)
        let hard = sandbox.file("labels-hard.txt")
        #expect(Glibc.link(same, hard) == 0)
        for labels in [same, link, hard] {
            let outcome = try sandbox.run("export", id, same, "--labels", labels, "--force")
            #expect(outcome.status == 1, "\(labels): \(outcome)")
            #expect(outcome.standardError.contains("the audio copy goes to"), "\(labels): \(outcome)")
            #expect(try bytes(same) == Data("precious".utf8), "\(labels): the file is untouched")
        }
        // Apart, both are written.
        let apart = try sandbox.run("export", id, same, "--labels", sandbox.file("same.txt"), "--force")
        #expect(apart.status == 0, "\(apart)")
        #expect(try bytes(same).prefix(4) == Data("fLaC".utf8))
        #expect(try String(contentsOfFile: sandbox.file("same.txt"), encoding: .utf8) == "0.500000\t0.500000\there\n")
    }

    @Test func labelsOnAMemosFileTheIndexOrAFIFOAreRefusedBeforeTheAudioIsWritten() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try markedMemo(sandbox)
        let memoFile = try #require(try sandbox.listedMemos().first?["path"] as? String)
        let index = sandbox.libraryDirectory.appendingPathComponent("index.sqlite3").path
        let memoBytes = try bytes(memoFile)
        let fifo = sandbox.file("pipe.txt")
        #expect(mkfifo(fifo, 0o600) == 0)
        let audio = sandbox.file("copy.flac")
        for (labels, cause) in [(memoFile, "inside the memo library"), (index, "inside the memo library"), (fifo, "FIFO")] {
            let outcome = try sandbox.run("export", id, audio, "--labels", labels, "--force", timeout: .seconds(10))
            #expect(outcome.status == 1 && !outcome.timedOut, "\(labels): \(outcome)")
            #expect(outcome.standardError.contains(cause), "\(labels): \(outcome)")
            #expect(!exists(audio), "\(labels): the audio copy was not written either")
        }
        #expect(try bytes(memoFile) == memoBytes)
        #expect(try sandbox.listedMemos().first?["state"] as? String == "complete")
    }

    // MARK: 5. A missing folder in words; folders and names without an extension

    @Test(arguments: ["x.m4a", "x.mp3", "x.flac", "x"])
    func aMissingFolderIsNamedInWords(name: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try markedMemo(sandbox)
        let outcome = try sandbox.shell("voicememo export \(id) missing/dir/\(name)")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("the folder missing/dir does not exist"), "\(outcome)")
        expectNoInternals(outcome)
        let labels = try sandbox.shell("voicememo export \(id) --labels missing/dir/labels.txt")
        #expect(labels.status == 1 && labels.standardError.contains("the folder missing/dir does not exist"), "\(labels)")
        expectNoInternals(labels)
        let recorded = try sandbox.shell("VOICEMEMO_UNPACED=1 voicememo record --source tone:440@-6 --duration 0.2 --output missing/dir/\(name)")
        #expect(recorded.status == 1, "\(recorded)")
        #expect(recorded.standardError.contains("the folder missing/dir does not exist"), "\(recorded)")
        expectNoInternals(recorded)
        let inAFile = try sandbox.shell("touch plain; voicememo export \(id) plain/\(name)")
        #expect(inAFile.status == 1 && inAFile.standardError.contains("plain is not a folder"), "\(inAFile)")
        expectNoInternals(inAFile)
        #expect(!exists(sandbox.file("missing")))
    }

    @Test func aFolderGetsTheTitleAsASafeNameInTheMemosFormatOrTheOneAskedFor() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try markedMemo(sandbox, title: ".Weekly/standup: what next?\u{1B}[2J")
        let expected = "_Weekly-standup- what next[2J"
        #expect(try sandbox.shell("mkdir exports").status == 0)
        let written = try sandbox.shell("voicememo export \(id) exports/")
        #expect(written.status == 0, "\(written)")
        #expect(written.standardOutput == "exports/\(expected).flac\n", "the path written, for a script: \(written)")
        let file = sandbox.file("exports/\(expected).flac")
        #expect(try bytes(file).prefix(4) == Data("fLaC".utf8))

        let again = try sandbox.shell("voicememo export \(id) exports")
        #expect(again.status == 1 && again.standardError.contains("already exists") && again.standardError.contains("--force"), "\(again)")
        #expect(try sandbox.shell("voicememo export \(id) exports --force").status == 0)
        let wav = try sandbox.shell("voicememo export \(id) exports/ --format wav")
        #expect(wav.status == 0 && wav.standardOutput == "exports/\(expected).wav\n", "\(wav)")
        #expect(try bytes(sandbox.file("exports/\(expected).wav")).prefix(4) == Data("RIFF".utf8))
        let missing = try sandbox.shell("voicememo export \(id) fresh/")
        #expect(missing.status == 1 && missing.standardError.contains("the folder fresh does not exist"), "\(missing)")
        let listed = try FileManager.default.contentsOfDirectory(atPath: sandbox.file("exports")).sorted()
        #expect(listed == ["\(expected).flac", "\(expected).wav"], "nothing else, nothing hidden: \(listed)")
    }

    @Test func aNameWithoutASoundExtensionGetsTheFormatsAndTheHelpSaysSo() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try markedMemo(sandbox)
        let flac = try sandbox.shell("mkdir exports && voicememo export \(id) exports/Standup")
        #expect(flac.status == 0 && flac.standardOutput == "exports/Standup.flac\n", "\(flac)")
        #expect(try bytes(sandbox.file("exports/Standup.flac")).prefix(4) == Data("fLaC".utf8))
        #expect(!exists(sandbox.file("exports/Standup")), "no file without an extension")
        let mp3 = try sandbox.shell("voicememo export \(id) exports/Standup.v2 --format mp3")
        #expect(mp3.status == 0 && mp3.standardOutput == "exports/Standup.v2.mp3\n", "\(mp3)")
        let help = try sandbox.run("export", "--help").standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("a folder (one that exists, or a path ending in /) gets <title>.<ext> in it"), "\(help)")
        #expect(help.contains("a name without a sound file extension gets the format's (Standup → Standup.flac)"), "\(help)")
    }

    /// The same rule of no Foundation text for the config file, which every recording reads.
    @Test func aConfigThatCannotBeReadIsNamedInWords() throws {
        let sandbox = try VoiceMemoSandbox()
        let config = sandbox.configDirectory.appendingPathComponent("voicememo/config").path
        try sandbox.useBuiltInConfig()
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let folder = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.1")
        #expect(folder.status == 2 && folder.standardError.contains("config: is a folder, not a file"), "\(folder)")
        expectNoInternals(folder)
        try FileManager.default.removeItem(atPath: config)
        try Data([0xFF, 0xFE, 0x41]).write(to: URL(fileURLWithPath: config))
        let binary = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.1")
        #expect(binary.status == 2 && binary.standardError.contains("is not UTF-8 text"), "\(binary)")
        expectNoInternals(binary)
    }
}
