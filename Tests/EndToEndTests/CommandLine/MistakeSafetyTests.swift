import Foundation
import SoundFiles
import Testing

/// Nothing a user does by mistake loses a memo or another file.
@Suite struct MistakeSafetyTests {
    // MARK: 1. An all-digit MEMO is only ever an id

    @Test func aGoneIdNeverFallsBackToATitle() throws {
        let sandbox = try VoiceMemoSandbox()
        let plan = try sandbox.recordMemo(title: "2 weeks plan")
        let groceries = try sandbox.recordMemo(title: "groceries")
        #expect(groceries == "2" && plan == "1")
        #expect(try sandbox.run("delete", plan).status == 0)
        #expect(try sandbox.run("delete", groceries).status == 0)
        #expect(try sandbox.run("purge", "2").status == 0)

        let again = try sandbox.run("purge", "2")
        #expect(again.status == 1, "\(again)")
        #expect(again.standardError.contains("no memo with id 2"), "\(again.standardError)")
        #expect(again.standardOutput.isEmpty)
        #expect(try sandbox.listedMemos(deleted: true).map { $0["title"] as? String } == ["2 weeks plan"], "still in Recently Deleted")

        let titled = try sandbox.run("restore", "title:2")
        #expect(titled.status == 0 && titled.standardOutput == "1\n", "title:2 reaches \"2 weeks plan\": \(titled)")
    }

    @Test func everyCommandTakingMemoTreatsDigitsAsAnIdOnly() throws {
        let sandbox = try VoiceMemoSandbox()
        let three = try sandbox.recordMemo(title: "3")
        _ = try sandbox.recordMemo(title: "9 lives")
        #expect(try sandbox.run("delete", "3").status == 1, "memo 3 does not exist; the memo titled 3 is memo \(three)")
        #expect(try sandbox.listedMemos().count == 2, "nothing was deleted")
        let export = sandbox.file("nine.wav")
        let commands: [[String]] = [
            ["rename", "9", "new"], ["delete", "9"], ["restore", "9"], ["purge", "9"], ["export", "9", export],
            ["play", "9", "--device", "null"], ["analyze", "9"],
        ]
        for arguments in commands {
            let outcome = try sandbox.run(arguments: arguments)
            #expect(outcome.status == 1, "\(arguments): \(outcome)")
            #expect(outcome.standardError.contains("no memo with id 9"), "\(arguments): \(outcome.standardError)")
        }
        #expect(try sandbox.listedMemos().compactMap { $0["title"] as? String }.sorted() == ["3", "9 lives"], "nothing changed")
        #expect(!FileManager.default.fileExists(atPath: export))

        #expect(try sandbox.run("rename", "title:9", "nine").status == 0)
        #expect(try sandbox.run("rename", "title:3", "three").status == 0)
        #expect(try sandbox.listedMemos().compactMap { $0["title"] as? String }.sorted() == ["nine", "three"])
        let help = try sandbox.run("rename", "--help")
        #expect(help.standardOutput.contains("title:"), "\(help.standardOutput)")
    }

    // MARK: 2. record --output never replaces what it should not

    private func record(_ sandbox: VoiceMemoSandbox, _ extra: String..., timeout: Duration = .seconds(30)) throws -> ProcessOutcome {
        var environment = sandbox.environment
        environment["VOICEMEMO_UNPACED"] = "1"
        return try ProcessRunner.run(
            try VoiceMemoBinary.url(),
            arguments: ["record", "--source", "tone:440@-6", "--duration", "0.5"] + extra,
            environment: environment, timeout: timeout)
    }

    private func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func recordOutputRefusesAnExistingFileUnlessForced() throws {
        let sandbox = try VoiceMemoSandbox()
        let keep = sandbox.file("keep.wav")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: keep))
        let refused = try record(sandbox, "--output", keep)
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.standardError.contains("already exists") && refused.standardError.contains("--force"), "\(refused.standardError)")
        #expect(try bytes(keep) == Data("precious".utf8), "untouched")

        let forced = try record(sandbox, "--output", keep, "--force")
        #expect(forced.status == 0, "\(forced)")
        #expect(try bytes(keep).prefix(4) == Data("RIFF".utf8), "replaced by the recording")

        let lonely = try sandbox.run("record", "--force", "--duration", "1")
        #expect(lonely.status == 2 && lonely.standardError.contains("--output"), "--force needs --output: \(lonely)")
    }

    @Test func recordOutputNeverWritesIntoTheLibraryEvenWithForce() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "three seconds", seconds: "3")
        let memo = try #require(try sandbox.listedMemos().first)
        let memoFile = try #require(memo["path"] as? String)
        let index = sandbox.libraryDirectory.appendingPathComponent("index.sqlite3").path
        let before = (try bytes(memoFile), try bytes(index))
        let linkToMemo = sandbox.file("link.wav")
        try FileManager.default.createSymbolicLink(atPath: linkToMemo, withDestinationPath: memoFile)
        let targets = [
            memoFile, index, sandbox.libraryDirectory.appendingPathComponent("new.wav").path,
            sandbox.libraryDirectory.appendingPathComponent(".trash/x.wav").path,
            sandbox.libraryDirectory.path + "/../library/sneaky.wav", linkToMemo,
        ]
        for target in targets {
            let outcome = try record(sandbox, "--output", target, "--force", "--format", "wav")
            #expect(outcome.status == 1, "\(target): \(outcome)")
            #expect(outcome.standardError.contains("inside the memo library"), "\(target): \(outcome.standardError)")
        }
        #expect(try bytes(memoFile) == before.0, "the memo's audio is untouched")
        #expect(try bytes(index) == before.1, "the index is untouched")
        #expect(!FileManager.default.fileExists(atPath: sandbox.libraryDirectory.appendingPathComponent("new.wav").path))
        #expect(!FileManager.default.fileExists(atPath: sandbox.libraryDirectory.appendingPathComponent("sneaky.wav").path))
        let listed = try #require(try sandbox.listedMemos().first)
        #expect(listed["frames"] as? Int == memo["frames"] as? Int && listed["state"] as? String == "complete")
    }

    @Test func recordOutputRefusesAFIFOAndFollowsASymbolicLinkToAFile() throws {
        let sandbox = try VoiceMemoSandbox()
        let fifo = sandbox.file("pipe.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        // A regression would open the FIFO for writing and block: the timeout ends it.
        let refused = try record(sandbox, "--output", fifo, "--force", timeout: .seconds(10))
        #expect(refused.status == 1 && !refused.timedOut, "\(refused)")
        #expect(refused.standardError.contains("FIFO"), "\(refused.standardError)")
        #expect(fileType(fifo) == S_IFIFO, "still a FIFO")

        let real = sandbox.file("real.wav")
        try Data("old".utf8).write(to: URL(fileURLWithPath: real))
        let link = sandbox.file("link.wav")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(try record(sandbox, "--output", link).status == 1, "an existing file behind a link needs --force too")
        let forced = try record(sandbox, "--output", link, "--force")
        #expect(forced.status == 0, "\(forced)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real, "the link stays a link")
        #expect(try bytes(real).prefix(4) == Data("RIFF".utf8), "its file got the recording")

        let dangling = sandbox.file("dangling.wav")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: sandbox.file("nowhere/x.wav"))
        let nothing = try record(sandbox, "--output", dangling, "--force")
        #expect(nothing.status == 1 && nothing.standardError.contains("symbolic link to nothing"), "\(nothing)")
    }

    // MARK: 3. export --force replaces only a regular file outside the library

    @Test func exportForceRefusesDevicesFIFOsAndTheLibrary() throws {
        let sandbox = try VoiceMemoSandbox()
        let one = try sandbox.recordMemo(title: "one", seconds: "1")
        let two = try sandbox.recordMemo(title: "two", seconds: "0.3")
        let oneFile = try #require(try sandbox.listedMemos().first { $0["title"] as? String == "one" }?["path"] as? String)
        let oneBytes = try bytes(oneFile)

        let onto = try sandbox.run("export", two, oneFile, "--force")
        #expect(onto.status == 1 && onto.standardError.contains("inside the memo library"), "\(onto)")
        #expect(try bytes(oneFile) == oneBytes, "memo one's audio is untouched")
        let index = sandbox.libraryDirectory.appendingPathComponent("index.sqlite3").path
        let intoIndex = try sandbox.run("export", one, index, "--force", "--format", "wav")
        #expect(intoIndex.status == 1, "\(intoIndex)")
        #expect(try sandbox.listedMemos().count == 2)

        let fifo = sandbox.file("pipe.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        let toFIFO = try sandbox.run("export", one, fifo, "--force")
        #expect(toFIFO.status == 1 && toFIFO.standardError.contains("FIFO"), "\(toFIFO)")
        #expect(fileType(fifo) == S_IFIFO, "still a FIFO")

        // /dev/full's twin, made here: a regression replaces this node, never /dev/full.
        if getuid() == 0 {
            let device = sandbox.file("full")
            #expect(mknod(device, S_IFCHR | 0o600, dev_t(0x107)) == 0, "makedev(1, 7), as /dev/full")
            let toDevice = try sandbox.run("export", one, device, "--force", "--format", "wav")
            #expect(toDevice.status == 1 && toDevice.standardError.contains("character device"), "\(toDevice)")
            #expect(fileType(device) == S_IFCHR, "still a character device")
        }

        let outside = sandbox.file("outside.wav")
        try Data("old".utf8).write(to: URL(fileURLWithPath: outside))
        let link = sandbox.file("link.wav")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        let throughLink = try sandbox.run("export", one, link, "--force")
        #expect(throughLink.status == 0, "\(throughLink)")
        #expect(fileType(link) == S_IFLNK, "the link stays a link")
        #expect(try bytes(outside) == oneBytes, "the file it points to got the copy")

        let linkIntoLibrary = sandbox.file("into.wav")
        try FileManager.default.createSymbolicLink(atPath: linkIntoLibrary, withDestinationPath: oneFile)
        let refused = try sandbox.run("export", two, linkIntoLibrary, "--force")
        #expect(refused.status == 1 && refused.standardError.contains("inside the memo library"), "\(refused)")
        #expect(try bytes(oneFile) == oneBytes)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.file("")).filter { $0.contains(".export-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    private func fileType(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }
}

/// Input that used to trap, empty memos, one rate range.
@Suite struct RefusedInputTests {
    @Test func aFileSourceWithThirtyThreeChannelsIsRefusedByMeterRecordAndTheApp() throws {
        let sandbox = try VoiceMemoSandbox()
        let file = sandbox.file("ch33.wav")
        let made = try sandbox.shell("sox -n -r 48000 -c 33 ch33.wav synth 0.5 sine 440")
        #expect(made.status == 0, "\(made)")
        for arguments in [["meter", "--duration", "0.3"], ["record", "--duration", "0.3"], []] {
            let outcome = try sandbox.run(arguments: arguments + ["--source", "file:" + file])
            #expect(outcome.status == 2 && !outcome.wasSignalled, "\(arguments): \(outcome)")
            #expect(outcome.standardError.contains("33 channels"), "\(arguments): \(outcome.standardError)")
            #expect(!outcome.standardError.contains("Fatal error") && !outcome.standardError.contains("precondition"))
        }
        #expect(try sandbox.listedMemos().isEmpty)
    }

    @Test func recordForNoTimeIsAUsageErrorAndLeavesNothing() throws {
        let sandbox = try VoiceMemoSandbox()
        for format in ["flac", "mp3", "opus", "wav"] {
            let outcome = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0", "--format", format)
            #expect(outcome.status == 2, "\(format): \(outcome)")
            #expect(outcome.standardError.contains("--duration") && outcome.standardError.contains("above zero"), "\(outcome.standardError)")
        }
        #expect(try sandbox.listedMemos().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.libraryDirectory.path).filter { !$0.hasPrefix(".") && !$0.hasPrefix("index.sqlite3") }.isEmpty)
    }

    @Test func aSourceThatGivesNothingLeavesNoMemoAndSaysSo() throws {
        let sandbox = try VoiceMemoSandbox()
        #expect(try sandbox.shell("sox -n -r 48000 -c 1 empty.wav trim 0 0").status == 0)
        for format in ["flac", "mp3", "wav"] {
            let outcome = try sandbox.run("record", "--source", "file:" + sandbox.file("empty.wav"), "--format", format)
            #expect(outcome.status == 1, "\(format): \(outcome)")
            #expect(outcome.standardError.contains("nothing was recorded"), "\(outcome.standardError)")
            let output = sandbox.file("empty-out.\(format)")
            let toFile = try sandbox.run("record", "--source", "file:" + sandbox.file("empty.wav"), "--output", output)
            #expect(toFile.status == 1 && toFile.standardError.contains("no file was kept"), "\(toFile)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        #expect(try sandbox.listedMemos().isEmpty, "no 0-frame damaged memo")
    }

    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"))
    func aDiskFullAtTheStartLeavesNoMemo() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.shell("""
            mkdir -p mnt
            exec unshare -m --propagation private bash -c '
              mount -t tmpfs -o size=1m tmpfs mnt || exit 99
              export VOICEMEMO_HOME="$PWD/mnt/library"
              voicememo list > /dev/null || exit 98
              # 100 kB left: room for the index, less than the 256 kB a recording keeps free.
              avail=$(df -k --output=avail mnt | tail -1)
              dd if=/dev/zero of=mnt/filler bs=1k count=$((avail - 100)) 2> /dev/null
              voicememo record --source tone:440@-6 --format flac --duration 5 > id.txt 2> record.err
              echo "record=$?"
              voicememo list --json > list.json 2> list.err; echo "list=$?"
              ls -a mnt/library > files.txt
              umount mnt
            '
            """)
        #expect(outcome.standardOutput.contains("record=1"), "\(outcome)")
        let message = try String(contentsOfFile: sandbox.file("record.err"), encoding: .utf8)
        #expect(message.contains("disk is full") && message.contains("nothing was recorded"), "\(message)")
        #expect(outcome.standardOutput.contains("list=0"), "\(outcome)")
        let list = try String(contentsOfFile: sandbox.file("list.json"), encoding: .utf8)
        #expect(list.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "no damaged 0 B memo: \(list)")
        let files = try String(contentsOfFile: sandbox.file("files.txt"), encoding: .utf8)
        #expect(!files.contains(".flac"), "\(files)")
    }

    @Test func exportNamesNoFlagItLacksNorItsTemporaryFile() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        #expect(try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.3", "--rate", "44.1k", "--format", "wav").status == 0)
        let target = sandbox.file("out.opus")
        let outcome = try sandbox.run("export", "1", target)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(!outcome.standardError.contains("--rate") && !outcome.standardError.contains("--channels"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains(".export-"), "no temporary file named: \(outcome.standardError)")
        #expect(outcome.standardError.contains(target) && outcome.standardError.contains("44100"), "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func analyzeSaysWhenAFileIsTooShortAndNamesTheMemo() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        #expect(try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.3", "--title", "Short one").status == 0)
        let outcome = try sandbox.run("analyze", "1")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput.contains("memo:                Short one"), "\(outcome.standardOutput)")
        #expect(!outcome.standardOutput.contains("file:                1\n"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("too short to measure"), "\(outcome.standardOutput)")
        #expect(!outcome.standardOutput.contains("gate)") && !outcome.standardOutput.contains("below the"), "\(outcome.standardOutput)")
    }

    @Test(arguments: ["\u{200B}", "\u{200B}\u{200D}\u{2060}", "\u{FEFF} \u{200B}"])
    func aTitleThatLooksBlankIsRefused(title: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "kept")
        let outcome = try sandbox.run("rename", id, title)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("invisible"), "\(outcome.standardError)")
        #expect(try sandbox.listedMemos().first?["title"] as? String == "kept")
    }

    @Test func theRateFlagStatesTheOneRangeThatWorks() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("record", "--rate", "4000", "--duration", "1", "--source", "tone:440@-6")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("--rate") && outcome.standardError.contains("8000 to 384000"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("1000 to 768000"))
    }
}

/// Restoring a memo whose name a hand-copied file took keeps both.
@Suite struct RestoreClashTests {
    @Test func restoreAfterAHandCopiedFileKeepsBothUnderTwoNames() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "kept twice", format: "wav", seconds: "0.5")
        let original = try #require(try sandbox.listedMemos().first?["path"] as? String)
        #expect(try sandbox.run("delete", id).status == 0)
        let trashed = try #require(try sandbox.listedMemos(deleted: true).first?["path"] as? String)
        try FileManager.default.copyItem(atPath: trashed, toPath: original)  // put back by hand

        let restored = try sandbox.run("restore", id)
        #expect(restored.status == 0, "\(restored)")
        #expect(!restored.standardError.contains("SQLite") && !restored.standardError.contains("constraint"), "\(restored.standardError)")
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 2, "the adopted copy and the restored memo: \(memos)")
        let paths = Set(memos.compactMap { $0["path"] as? String })
        #expect(paths.contains(original))
        let restoredPath = try #require(memos.first { String(describing: $0["id"] ?? "") == id }?["path"] as? String)
        #expect(restoredPath != original && restoredPath.hasSuffix("-2.wav"), "\(restoredPath)")
        #expect(FileManager.default.fileExists(atPath: restoredPath) && FileManager.default.fileExists(atPath: original))
        #expect(try sandbox.listedMemos(deleted: true).isEmpty)
    }
}

/// A rename killed part-way leaves nothing behind for long.
@Suite struct KilledRenameTests {
    @Test func aCopyLeftByAKilledRenameIsRemovedAtTheNextStart() throws {
        let sandbox = try VoiceMemoSandbox()
        // FLAC: its title is written by copying the file (decoded and encoded again). The copy
        // must outlast a starved poll: with 20 s of audio it existed for about 0.05 s (the
        // rename took 0.1 s in all), and a poll slowed to 0.7 s never saw it ("no copy seen"). 20 minutes:
        // the copy exists for about 3 s on a quiet machine, longer on a loaded one (recording
        // them takes about 5 s).
        let id = try sandbox.recordMemo(title: "long", format: "flac", seconds: "20m", timeout: .seconds(180))
        let library = sandbox.libraryDirectory.path
        let killed = try sandbox.shell("""
            voicememo rename \(id) "new title" &
            pid=$!
            deadline=$((SECONDS + 60))
            until ls -a "\(library)" | grep -q '\\.retag-'; do
              if ! kill -0 $pid 2>/dev/null || [ $SECONDS -ge $deadline ]; then echo "no copy seen"; exit 1; fi
              sleep 0.05
            done
            kill -9 $pid
            wait $pid 2>/dev/null
            ls -a "\(library)" | grep '\\.retag-'
            """, timeout: .seconds(90))
        #expect(killed.status == 0, "\(killed)")
        let leftover = killed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(leftover.hasPrefix(".") && leftover.contains(".retag-"), "\(killed)")

        // A copy whose process still runs (this test's, by its name) is another rename's: kept.
        let alive = library + "/.other.flac.retag-\(getpid()).flac"
        try Data("in progress".utf8).write(to: URL(fileURLWithPath: alive))
        let list = try sandbox.run("list")
        #expect(list.status == 0, "\(list)")
        #expect(FileManager.default.fileExists(atPath: alive), "a live process's copy is left to it")
        try FileManager.default.removeItem(atPath: alive)
        #expect(list.standardError.contains("removed") && list.standardError.contains(leftover), "\(list.standardError)")
        let after = try FileManager.default.contentsOfDirectory(atPath: library).filter { $0.contains(".retag-") }
        #expect(after.isEmpty, "\(after)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(memo["title"] as? String == "long", "the rename did not happen")
        #expect(memo["state"] as? String == "complete" && memo["frames"] as? Int == 48_000 * 1200)
        #expect(try sandbox.run("list").standardError.isEmpty, "said once")
    }

    /// A WAV's title is written in place: on a disk with no room for a copy the rename works,
    /// and the file (its inode) is the same one.
    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"))
    func aWAVIsRenamedInPlaceOnANearlyFullDisk() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.shell("""
            mkdir -p mnt
            exec unshare -m --propagation private bash -c '
              mount -t tmpfs -o size=2m tmpfs mnt || exit 99
              export VOICEMEMO_HOME="$PWD/mnt/library"
              voicememo record --source tone:440@-6 --format wav --duration 5 --title before > /dev/null || exit 98
              file=$(ls mnt/library/*.wav)
              inode=$(stat -c %i "$file")
              avail=$(df -k --output=avail mnt | tail -1)
              dd if=/dev/zero of=mnt/filler bs=1k count=$((avail - 40)) 2> /dev/null
              voicememo rename 1 "after, in place" > rename.out 2> rename.err; echo "rename=$?"
              [ "$(stat -c %i "$file")" = "$inode" ] && echo "same-inode"
              ls -a mnt/library | grep -c retag | sed "s/^/copies=/"
              rm mnt/filler
              cp "$file" renamed.wav
              voicememo list --json > list.json
              umount mnt
            '
            """)
        #expect(outcome.standardOutput.contains("rename=0"), "\(outcome) \((try? String(contentsOfFile: sandbox.file("rename.err"), encoding: .utf8)) ?? "")")
        #expect(outcome.standardOutput.contains("same-inode"), "\(outcome)")
        #expect(outcome.standardOutput.contains("copies=0"), "\(outcome)")
        let reader = try SoundFileReader(path: sandbox.file("renamed.wav"))
        #expect(reader.metadata.title == "after, in place")
        #expect(reader.info.frames == 48_000 * 5)
        let list = try String(contentsOfFile: sandbox.file("list.json"), encoding: .utf8)
        #expect(list.contains("\"after, in place\"") && list.contains("\"complete\""), "\(list)")
    }
}
