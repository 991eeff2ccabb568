import Foundation

extension VoiceMemoSandbox {
    /// Runs `script` with the library on a tmpfs of `size` (`1m`, `2m`) mounted at `mnt` in a
    /// private mount namespace (`unshare -m`), as the full-disk tests do; `VOICEMEMO_HOME` is
    /// `mnt/library`, and `mount -o remount,size=…  mnt` gives room again. Exit 99: no mount.
    /// Needs root (`LibraryReadOnlyMountTests.canMount`). The script must not use single quotes.
    func onTmpfs(size: String, _ script: String, timeout: Duration = .seconds(60)) throws -> ProcessOutcome {
        try shell("""
            mkdir -p mnt
            exec unshare -m --propagation private bash -c '
              mount -t tmpfs -o size=\(size) tmpfs mnt || exit 99
              export VOICEMEMO_HOME="$PWD/mnt/library"
            \(script)
              umount mnt
            '
            """, timeout: timeout)
    }
}
