import Foundation
import SoundFiles
import Testing

/// The disk fills while a lossy recording's encoder is behind: an
/// unpaced source (`VOICEMEMO_UNPACED=1`) writes the intermediate far faster than the nice-19
/// encoder follows, on a small tmpfs in a private mount namespace. Whatever was captured ends
/// either in the final file, whole and as long as the index says, or kept in the intermediate
/// and recovered into a playable memo once there is room — never a memo whose index length
/// disagrees with its file (MP3 was listed 1:48 and played 20 s; M4A was listed `missing` with
/// its audio in a hidden file that nothing recovered).
@Suite struct LossyDiskFullTests {
    /// Each lossy format; Opus is written directly (no intermediate), so a smaller disk fills it.
    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"),
        arguments: [("mp3", "20m"), ("ogg", "20m"), ("m4a", "20m"), ("opus", "3m")])
    func theDiskFillsBehindTheEncoder(format: String, disk: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.onTmpfs(size: disk, """
              export VOICEMEMO_UNPACED=1
              voicememo record --source tone:440@-6 --format \(format) --duration 150 --title Full --no-transcribe > id.txt 2> record.err
              echo "record=$?"
              voicememo list --json > full.json 2> full.err; echo "full=$?"
              ls -a mnt/library > full-files.txt
              voicememo recover 2> recover-full.err; echo "recover-full=$?"
              if grep -q recording full.json; then voicememo delete 1 2> delete-full.err; echo "delete-full=$?"; fi
              mount -o remount,size=200m mnt
              voicememo recover 2> recover.err; echo "recover=$?"
              voicememo recover 2> recover-again.err; echo "recover-again=$?"
              voicememo list --json > roomy.json 2> roomy.err; echo "roomy=$?"
              ls -a mnt/library > roomy-files.txt
              cp mnt/library/*.\(format) final.\(format)
            """, timeout: .seconds(300))
        #expect(outcome.standardOutput.contains("record=1"), "\(outcome)")
        let recordErrors = sandbox.text("record.err")
        #expect(recordErrors.contains("the disk is full"), "the message names the cause: \(recordErrors)")
        #expect(!recordErrors.contains(".partial"), "no hidden file name reaches the user: \(recordErrors)")

        let whileFull = try #require(try sandbox.memos(in: "full.json").first, "\(outcome)")
        let fullErrors = sandbox.text("full.err")
        let waited = whileFull["state"] as? String == "recording"
        if waited {
            // Kept in the intermediate: said so by record and by list, recovered later.
            #expect(recordErrors.contains("is kept and becomes a playable memo once there is room"), "\(recordErrors)")
            #expect(fullErrors.contains("is kept whole but not encoded yet: the disk is full"), "\(fullErrors)")
            #expect(sandbox.text("full-files.txt").contains(".partial.w64"), "the intermediate is kept")
            // `recover` fails while the memo waits, finishes it once there is room.
            #expect(outcome.standardOutput.contains("recover-full=1"), "\(outcome)")
            // Not deleted as if it were being recorded, nor lost: refused with what it waits for.
            #expect(outcome.standardOutput.contains("delete-full=1"), "\(outcome)")
            #expect(sandbox.text("delete-full.err").contains("kept whole but not encoded yet"), "\(sandbox.text("delete-full.err"))")
            #expect(sandbox.text("recover-full.err").contains("is kept whole but not encoded yet"), "\(sandbox.text("recover-full.err"))")
            #expect(outcome.standardOutput.contains("recover=0"), "\(outcome) \(sandbox.text("recover.err"))")
            #expect(sandbox.text("recover.err").contains("kept whole when the disk filled"), "\(sandbox.text("recover.err"))")
        } else {
            #expect(whileFull["state"] as? String == "complete", "\(whileFull)")
            #expect(sandbox.text("recover.err").contains("nothing to recover"), "\(sandbox.text("recover.err"))")
        }

        #expect(outcome.standardOutput.contains("recover-again=0"), "\(outcome)")
        #expect(sandbox.text("recover-again.err").contains("nothing to recover"), "\(sandbox.text("recover-again.err"))")
        #expect(outcome.standardOutput.contains("roomy=0"), "\(outcome)")
        let memo = try #require(try sandbox.memos(in: "roomy.json").first)
        let state = memo["state"] as? String
        #expect(state == (waited ? "recovered" : "complete"), "\(memo) \(sandbox.text("roomy.err"))")
        let listed = try #require(memo["duration"] as? Double)
        let plays = try Self.decodedSeconds(sandbox.file("final.\(format)"))
        print(String(format: "LossyDiskFullTests: %@ on a %@ tmpfs: %@; listed %.3f s, the file plays %.3f s",
            format, disk, waited ? "kept in the intermediate, recovered with room" : "finished whole", listed, plays))
        #expect(abs(plays - listed) < 0.05, "the file plays what the index says")
        // What filled the disk is in the memo: the W64 intermediate of 20 MB holds ~52 s of
        // float stereo, 3 MB of Opus ~55 s.
        #expect(listed > 45, "listed \(listed) s")
        let files = sandbox.text("roomy-files.txt")
        #expect(!files.contains(".partial"), "nothing hidden is left: \(files)")
    }

    /// kill -9 while the disk fills behind the encoder (4 MB left of 20, the encoder tens of
    /// seconds behind), then the disk filled to 400 kB by another file: the next `list` keeps
    /// the memo waiting (before, recovery's encode ran into the full disk and marked it damaged
    /// for good), and once the disk is made larger it is recovered whole. (Killing at the very moment
    /// the writer stops is a race a test cannot win: the recorder finishes within milliseconds.)
    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"), arguments: ["mp3", "m4a"])
    func killedAsTheDiskFillsIsRecoveredOnceThereIsRoom(format: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.onTmpfs(size: "20m", """
              export VOICEMEMO_UNPACED=1
              voicememo record --source tone:440@-6 --format \(format) --duration 150 --title Killed --no-transcribe > id.txt 2> record.err &
              pid=$!
              deadline=$((SECONDS + 120))
              while [ "$(df --output=avail -k mnt | tail -1)" -gt 4096 ]; do
                kill -0 $pid 2>/dev/null || { echo "record ended before the disk filled"; cat record.err; exit 4; }
                [ $SECONDS -lt $deadline ] || { echo "timed out waiting for the disk to fill"; exit 5; }
                sleep 0.01
              done
              kill -9 $pid; wait $pid 2>/dev/null
              ls -a mnt/library > killed-files.txt
              stat -c %s mnt/library/.*.partial.w64 > intermediate-size.txt
              dd if=/dev/zero of=mnt/filler bs=1k count=$(( $(df --output=avail -k mnt | tail -1) - 400 )) 2>/dev/null
              voicememo list --json > full.json 2> full.err; echo "full=$?"
              mount -o remount,size=200m mnt
              voicememo list --json > roomy.json 2> roomy.err; echo "roomy=$?"
              ls -a mnt/library > roomy-files.txt
              cp mnt/library/*.\(format) final.\(format)
            """, timeout: .seconds(300))
        #expect(outcome.standardOutput.contains("full=0") && outcome.standardOutput.contains("roomy=0"), "\(outcome)")
        let whileFull = try #require(try sandbox.memos(in: "full.json").first, "\(outcome)")
        #expect(whileFull["state"] as? String == "recording", "\(whileFull) \(sandbox.text("full.err"))")
        #expect(sandbox.text("full.err").contains("is kept whole but not encoded yet"), "\(sandbox.text("full.err"))")
        let memo = try #require(try sandbox.memos(in: "roomy.json").first)
        #expect(memo["state"] as? String == "recovered", "\(memo) \(sandbox.text("roomy.err"))")
        let listed = try #require(memo["duration"] as? Double)
        let plays = try Self.decodedSeconds(sandbox.file("final.\(format)"))
        // Every frame the killed recording had written: 48 kHz stereo float after a header of
        // at most 4 KiB.
        let size = try #require(Double(sandbox.text("intermediate-size.txt").trimmingCharacters(in: .whitespacesAndNewlines)))
        let written = size / (48_000 * 8)
        print(String(format: "LossyDiskFullTests: %@ killed as the disk filled: %.3f s in the intermediate, recovered %.3f s, plays %.3f s",
            format, written, listed, plays))
        #expect(abs(plays - listed) < 0.05, "the file plays what the index says")
        #expect(abs(listed - written) < 0.05, "every frame written is in the memo: \(written) s written, \(listed) s listed")
        #expect(!(sandbox.text("roomy-files.txt")).contains(".partial"))
    }

    /// The library's disk at 100 %: reading works, changes say the disk is
    /// full (they said "a disk input/output error", and nothing could even be listed).
    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"))
    func aFullDiskStillLetsYouReadAndSaysWhyChangesWait() throws {
        let sandbox = try VoiceMemoSandbox()
        let reading = ["list", "list --json", "play 1 --device null", "export 1 out/copy.flac", "analyze 1", "waveform 1"]
        let writing = ["rename 1 Renamed", "mark 1 0.5", "delete 1", "record --source tone:440@-6 --duration 1 --no-transcribe"]
        let commands = (reading + writing).map { command in
            "voicememo \(command) > /dev/null 2> err.txt; echo \"\(command)=$?\"; cat err.txt"
        }.joined(separator: "\n")
        let outcome = try sandbox.onTmpfs(size: "4m", """
              export VOICEMEMO_UNPACED=1
              mkdir -p out
              voicememo record --source tone:440@-6 --format flac --duration 2 --title Kept --no-transcribe > /dev/null || exit 3
              dd if=/dev/zero of=mnt/filler bs=4k 2>/dev/null
              echo "available=$(df --output=avail -k mnt | tail -1 | tr -d " ")"
            \(commands)
            """, timeout: .seconds(120))
        #expect(outcome.standardOutput.contains("available=0"), "the disk is full: \(outcome)")
        for command in reading {
            #expect(outcome.standardOutput.contains("\(command)=0"), "\(command): \(outcome)")
        }
        for command in writing {
            #expect(outcome.standardOutput.contains("\(command)=1"), "\(command): \(outcome)")
        }
        #expect(outcome.standardOutput.contains("the disk is full: the memo index cannot be written"), "\(outcome)")
        #expect(!outcome.standardOutput.contains("input/output error"), "\(outcome)")
        let copy = try SoundFileReader(path: sandbox.file("out/copy.flac"))
        #expect(copy.info.frames == 96_000)
        copy.close()
    }

    /// Every frame the file decodes to, in seconds (not the header's claim).
    static func decodedSeconds(_ path: String) throws -> Double {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        var decoded = 0
        var buffer = [Float](repeating: 0, count: 8192 * 2)
        while true {
            let read = try buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return try reader.read(into: base, frames: 8192, as: .float32)
            }
            if read == 0 { break }
            decoded += read
        }
        return Double(decoded) / Double(reader.info.sampleRate)
    }
}

extension VoiceMemoSandbox {
    /// A file of the sandbox as text ("" when it does not exist).
    func text(_ name: String) -> String {
        (try? String(contentsOfFile: file(name), encoding: .utf8)) ?? ""
    }

    /// The memos of a `list --json` saved in the sandbox.
    func memos(in name: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: file(name)))
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }
}

/// The app while the disk fills behind an M4A recording's encoder: before, the app found no
/// `.m4a`, said the file was "gone (deleted by another process): nothing was saved" and
/// removed the memo with its intermediate — the whole recording lost.
@Suite(.serialized) struct AppTmuxLossyDiskFullTests {
    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"))
    func theDiskFillsBehindTheEncoderAndTheRecordingWaitsForRoom() throws {
        // Noise 400× faster than real time (the app's tone is near real time, and its encoder
        // keeps up): the nice-19 encoder is tens of seconds behind when 20 MB fill.
        let (sandbox, input) = try AppTmuxLongWorkTests.sandboxWithEndlessNoise()
        defer { withExtendedLifetime(input) {} }
        let library = sandbox.libraryDirectory.path
        let launcher = "mkdir -p '\(library)' && unshare -m --propagation private -- "
            + "sh -c 'mount -t tmpfs -o size=20m tmpfs \"$0\" || exit 99; exec \"$@\"' '\(library)'"
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source alsa:voicememo_capture --format m4a", width: 100, launcher: launcher)
        try app.waitFor("Listening to alsa:voicememo_capture", timeout: 20)
        try app.press("r")
        let screen = try app.waitFor("Recording stopped", timeout: 60)
        print("AppTmuxLossyDiskFullTests: the screen when the disk filled:\n\(screen)")
        #expect(screen.contains("disk is full"), "the status line names the cause: \(screen)")
        #expect(!screen.contains("nothing was saved") && !screen.contains("is gone"), "\(screen)")
        #expect(screen.contains("once there is room"), "it says how the memo becomes playable: \(screen)")
        #expect(!screen.contains(".partial"), "no hidden file name: \(screen)")

        // In the app's namespace: the intermediate is there; with the disk kept full (the app
        // freed what its encoder had written), `list` keeps the memo waiting; the disk made
        // larger, `list` recovers it whole.
        let namespace = "nsenter -t \(try app.panePID()) -m --"
        let inside = try sandbox.shell("""
            \(namespace) sh -c 'ls -a "$0" > "$2"; \
              dd if=/dev/zero of="$0/.filler" bs=1k count=$(( $(df --output=avail -k "$0" | tail -1) - 400 )) 2>/dev/null; \
              VOICEMEMO_HOME="$0" voicememo list --json > "$1" 2> "$5"; \
              mount -o remount,size=200m "$0"; VOICEMEMO_HOME="$0" voicememo list --json > "$3"; cp "$0"/*.m4a "$4"' \
              '\(library)' '\(sandbox.file("full.json"))' '\(sandbox.file("full-files.txt"))' '\(sandbox.file("roomy.json"))' \
              '\(sandbox.file("final.m4a"))' '\(sandbox.file("full.err"))'
            """, timeout: .seconds(120))
        #expect(inside.status == 0, "\(inside)")
        #expect(sandbox.text("full-files.txt").contains(".partial.w64"), "the intermediate is kept: \(sandbox.text("full-files.txt"))")
        #expect(try sandbox.memos(in: "full.json").first?["state"] as? String == "recording", "\(sandbox.text("full.json"))")
        #expect(sandbox.text("full.err").contains("is kept whole but not encoded yet"), "\(sandbox.text("full.err"))")
        let memo = try #require(try sandbox.memos(in: "roomy.json").first, "\(sandbox.text("roomy.json"))")
        #expect(memo["state"] as? String == "recovered", "\(memo)")
        let listed = try #require(memo["duration"] as? Double)
        let plays = try LossyDiskFullTests.decodedSeconds(sandbox.file("final.m4a"))
        print(String(format: "AppTmuxLossyDiskFullTests: recovered %.3f s, plays %.3f s", listed, plays))
        #expect(abs(plays - listed) < 0.05)
        #expect(listed > 45, "listed \(listed) s")
        try app.press("q")
        let end = try app.waitFor("END")
        #expect(end.contains("EXIT=0"), "\(end)")
    }
}
