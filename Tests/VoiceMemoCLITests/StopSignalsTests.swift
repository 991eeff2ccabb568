import Platform
import Glibc
import Testing

@testable import VoiceMemoCLI

/// The stop signals' handlers nest: `record` installs them before it prints the memo's id, and
/// opening the library (which installs them for its recoveries) must not put the default
/// actions back in between — a SIGINT there was lost or killed the command outright.
@Suite(.serialized) struct StopSignalsTests {
    /// A signal that comes after the last recovery's last slice stopped nothing: it says so
    /// instead of "the rest is kept as it was".
    @Test func aStopDuringTheRecoveriesSaysWhatIsLeft() {
        #expect(
            LibraryAccess.interruptedRecovery(signal: SIGINT, stoppedAt: 3)
                == "SIGINT: stopped recovering; memo 3 is kept as it was and recovered the next time the library opens")
        #expect(
            LibraryAccess.interruptedRecovery(signal: SIGTERM, stoppedAt: nil)
                == "SIGTERM: stopped after the recoveries had finished; nothing is left to recover")
    }
}
