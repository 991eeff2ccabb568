import TestSupport
import Foundation

/// Whether this machine allows something a test needs (a mount namespace, ptrace), by running
/// a harmless command that needs it: for `@Test(.enabled(if:))`, so a test that cannot run
/// here is skipped visibly rather than failed.
enum HostProbe {
    /// Whether `executable` (an absolute path) exists and exits 0 with `arguments`.
    static func succeeds(_ executable: String, _ arguments: [String]) -> Bool {
        guard Tool.exists(executable) else { return false }
        return (try? Tool.run(executable, arguments))?.status == 0
    }
}
