import Platform
import Glibc
import Testing

@testable import VoiceMemoCLI

/// The stop signals' handlers nest: `record` installs them before it prints the memo's id, and
/// opening the library (which installs them for its recoveries) must not put the default
/// actions back in between — a SIGINT there was lost or killed the command outright.
@Suite(.serialized) struct StopSignalsTests {
    private func handlerIsDefault(_ number: Int32) -> Bool {
        var current = sigaction()
        sigaction(number, nil, &current)
        return current.__sigaction_handler.sa_handler == nil
    }

    @Test func nestedInstallsKeepTheHandlersUntilTheOutermostUninstall() {
        #expect(handlerIsDefault(SIGHUP), "none installed before")
        StopSignals.install()
        #expect(!handlerIsDefault(SIGHUP))
        StopSignals.install()
        StopSignals.uninstall()
        #expect(!handlerIsDefault(SIGHUP), "the inner uninstall leaves the outer one's handlers")
        StopSignals.uninstall()
        #expect(handlerIsDefault(SIGHUP), "the outermost puts the default action back")
        #expect(StopSignals.pending == nil, "no signal came")
    }

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
