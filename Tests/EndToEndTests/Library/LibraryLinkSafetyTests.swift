import Foundation
import Testing

/// The library never follows a symbolic or hard link out of itself when it writes or deletes,
/// and a library it cannot read is an error, never an empty list.
@Suite struct LibraryLinkSafetyTests {
    private func makeVictim(_ sandbox: VoiceMemoSandbox) throws -> String {
        let victim = sandbox.file("victim")
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        try Data("not a memo".utf8).write(to: URL(fileURLWithPath: victim + "/song.flac"))
        return victim
    }

    @Test func aTrashThatIsASymbolicLinkIsRefusedAndNothingOutsideIsDeleted() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "kept")
        let victim = try makeVictim(sandbox)
        let trash = sandbox.libraryDirectory.appendingPathComponent(".trash").path
        try? FileManager.default.removeItem(atPath: trash)
        try FileManager.default.createSymbolicLink(atPath: trash, withDestinationPath: victim)
        for arguments in [["list", "--deleted"], ["purge", "--all", "--yes"], ["list"], ["delete", "1"]] {
            let outcome = try sandbox.run(arguments: arguments)
            #expect(outcome.status == 1, "\(arguments): \(outcome)")
            #expect(outcome.standardError.contains("its .trash is a symbolic link"), "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardOutput.isEmpty, "\(arguments): \(outcome)")
        }
        #expect(FileManager.default.fileExists(atPath: victim + "/song.flac"), "nothing outside the library is deleted")
        try FileManager.default.removeItem(atPath: trash)
        #expect(try sandbox.listedMemos().map { $0["title"] as? String } == ["kept"], "the library opens again")
    }

    @Test func theLockFolderAndTheIndexMustBeTheLibrarysOwn() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "kept")
        let victim = try makeVictim(sandbox)
        let locks = sandbox.libraryDirectory.appendingPathComponent(".locks").path
        try FileManager.default.removeItem(atPath: locks)
        try FileManager.default.createSymbolicLink(atPath: locks, withDestinationPath: victim)
        let refused = try sandbox.run("list")
        #expect(refused.status == 1 && refused.standardError.contains("its .locks is a symbolic link"), "\(refused)")
        try FileManager.default.removeItem(atPath: locks)

        let index = sandbox.libraryDirectory.appendingPathComponent("index.sqlite3").path
        let elsewhere = sandbox.file("elsewhere.sqlite3")
        try FileManager.default.moveItem(atPath: index, toPath: elsewhere)
        try FileManager.default.createSymbolicLink(atPath: index, withDestinationPath: elsewhere)
        let linkedIndex = try sandbox.run("list")
        #expect(linkedIndex.status == 1 && linkedIndex.standardError.contains("its index.sqlite3 is a symbolic link"), "\(linkedIndex)")
        #expect(FileManager.default.fileExists(atPath: victim + "/song.flac"))
    }

    @Test func recordOutputNeverWritesThroughAHardLinkIntoTheLibrary() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "original", seconds: "1")
        let memo = try #require(try sandbox.listedMemos().first?["path"] as? String)
        let index = sandbox.libraryDirectory.appendingPathComponent("index.sqlite3").path
        let before = try Data(contentsOf: URL(fileURLWithPath: memo))
        for (link, original, name) in [(sandbox.file("memo.wav"), memo, URL(fileURLWithPath: memo).lastPathComponent), (sandbox.file("idx.wav"), index, "index.sqlite3")] {
            try FileManager.default.linkItem(atPath: original, toPath: link)
            var environment = sandbox.environment
            environment["VOICEMEMO_UNPACED"] = "1"
            let outcome = try ProcessRunner.run(
                try VoiceMemoBinary.url(),
                arguments: ["record", "--source", "tone:880@-6", "--duration", "1", "--output", link, "--force"],
                environment: environment, timeout: .seconds(30))
            #expect(outcome.status == 1, "\(outcome)")
            #expect(outcome.standardError.contains("that file is also \(name) in the memo library"), "\(outcome.standardError)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: memo)) == before, "the memo's file is untouched")
        #expect(try sandbox.listedMemos().map { $0["title"] as? String } == ["original"], "the index is untouched")
    }

    @Test(arguments: ["wav", "mp3", "flac"])
    func aMemoThatIsALinkIsNeverWrittenThrough(format: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outside = sandbox.file("outside.\(format)")
        var environment = sandbox.environment
        environment["VOICEMEMO_UNPACED"] = "1"
        let made = try ProcessRunner.run(
            try VoiceMemoBinary.url(),
            arguments: ["record", "--source", "tone:440@-6", "--duration", "1", "--format", format, "--output", outside],
            environment: environment, timeout: .seconds(30))
        try #require(made.status == 0, "\(made)")
        let before = try Data(contentsOf: URL(fileURLWithPath: outside))
        let link = sandbox.libraryDirectory.appendingPathComponent("linked.\(format)").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        let hardOutside = sandbox.file("hard.\(format)")
        try FileManager.default.copyItem(atPath: outside, toPath: hardOutside)
        try FileManager.default.linkItem(atPath: hardOutside, toPath: sandbox.libraryDirectory.appendingPathComponent("hard.\(format)").path)
        let hardBefore = try Data(contentsOf: URL(fileURLWithPath: hardOutside))
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 2, "\(memos)")

        for (title, kind) in [("linked", "a symbolic link"), ("hard", "other hard link")] {
            let renamed = try sandbox.run("rename", "title:\(title)", "Renamed \(title)")
            #expect(renamed.status == 0, "\(renamed)")
            #expect(renamed.standardError.contains("kept in the index only") && renamed.standardError.contains(kind), "\(renamed.standardError)")
            let marked = try sandbox.run("mark", "title:Renamed \(title)", "0.5")
            #expect(marked.status == 0, "\(marked)")
            if format != "mp3" {
                #expect(marked.standardError.contains("kept in the index only"), "\(marked.standardError)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: outside)) == before, "the link's target is unchanged")
        #expect(try Data(contentsOf: URL(fileURLWithPath: hardOutside)) == hardBefore, "the other hard link is unchanged")
        #expect(FileSystemKind.isSymbolicLink(link), "the link is still a link")
        #expect(Set(try sandbox.listedMemos().compactMap { $0["title"] as? String }) == ["Renamed linked", "Renamed hard"])
    }

    @Test func aLibraryThatCannotBeReadIsAnErrorNotAnEmptyList() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "private")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: sandbox.libraryDirectory.path)
        // As another user (the tests run as root, whom permissions do not stop).
        let script = """
            setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp XDG_CONFIG_HOME=/tmp/voicememo-nobody-config \
              VOICEMEMO_HOME="$VOICEMEMO_HOME" voicememo list --json
            """
        let outcome = try sandbox.shell(script)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty, "no empty list: \(outcome)")
        #expect(outcome.standardError.contains("cannot be read: permission denied"), "\(outcome.standardError)")
    }
}

enum FileSystemKind {
    static func isSymbolicLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }
}
