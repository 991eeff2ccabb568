import Foundation
import Testing

/// A library on a genuinely read-only file system: a tmpfs remounted read-only, in a private
/// mount namespace (`unshare -m`) so nothing outlives the test. Needs root (CAP_SYS_ADMIN);
/// where that is missing the test is skipped and `readOnlyLibraryListsAndRefusesWrites`
/// (permissions, via `setpriv`) still covers the refusal.
@Suite struct LibraryReadOnlyMountTests {
    /// Whether this process may make mounts in a namespace of its own.
    static let canMount: Bool =
        getuid() == 0
        && HostProbe.succeeds(
            "/usr/bin/unshare",
            ["-m", "--propagation", "private", "sh", "-c", "mkdir -p /tmp/.vm-probe-$$ && mount -t tmpfs tmpfs /tmp/.vm-probe-$$ && umount /tmp/.vm-probe-$$; rmdir /tmp/.vm-probe-$$"])

    @Test(.enabled(if: canMount, "needs root to mount a tmpfs"))
    func readOnlyFileSystemListsExportsAndRefusesChanges() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.shell("""
            mkdir -p mnt
            exec unshare -m --propagation private bash -c '
              mount -t tmpfs -o size=32m tmpfs mnt || exit 99
              export VOICEMEMO_HOME="$PWD/mnt/library"
              voicememo record --source tone:440@-6 --duration 0.3 --format wav --title "On tmpfs" > id.txt; echo "record=$?"
              mount -o remount,ro mnt || exit 98
              touch mnt/library/probe 2>/dev/null && echo "writable!"
              voicememo list --json > list.json; echo "list=$?"
              voicememo rename "$(cat id.txt)" "New title" 2> rename.err; echo "rename=$?"
              voicememo delete "$(cat id.txt)" 2> delete.err; echo "delete=$?"
              voicememo export "$(cat id.txt)" copy.flac; echo "export=$?"
              voicememo record --source tone:440@-6 --duration 0.1 2> record.err; echo "record2=$?"
              mount -o remount,rw mnt && rm -f mnt/library/index.sqlite3* && mount -o remount,ro mnt
              voicememo list --json > rebuilt.json 2> rebuilt.err; echo "rebuilt=$?"
              umount mnt
            '
            """)
        let out = outcome.standardOutput
        for expected in ["record=0", "list=0", "rename=1", "delete=1", "export=0", "record2=1", "rebuilt=0"] {
            #expect(out.contains(expected), "\(expected): \(outcome)")
        }
        #expect(!out.contains("writable!"), "the mount really is read-only")
        for name in ["rename.err", "delete.err", "record.err"] {
            let text = try String(contentsOfFile: sandbox.file(name), encoding: .utf8)
            #expect(text.contains("read-only"), "\(name): \(text)")
        }
        let listed = try String(contentsOfFile: sandbox.file("list.json"), encoding: .utf8)
        #expect(listed.contains("\"On tmpfs\""))
        let rebuilt = try String(contentsOfFile: sandbox.file("rebuilt.json"), encoding: .utf8)
        #expect(rebuilt.contains("\"On tmpfs\""), "no index on a read-only disk: built in memory from the files: \(rebuilt)")
        #expect(FileManager.default.fileExists(atPath: sandbox.file("copy.flac")), "export works from a read-only library")
    }
}
