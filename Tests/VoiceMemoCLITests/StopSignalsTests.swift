import Glibc
import Testing

@testable import VoiceMemoCLI

/// What a stop signal during the library's recoveries says. (The handlers' nesting is
/// `PlatformTests`' `StopSignalsTests`.)
@Suite struct StopSignalsTests {
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
