import Glibc
import Platform
import Testing

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

    @Test func signalsAreNamedAsTheShellNamesThem() {
        #expect(StopSignals.handled == [SIGINT, SIGTERM, SIGHUP])
        #expect(StopSignals.name(SIGINT) == "SIGINT")
        #expect(StopSignals.name(SIGTERM) == "SIGTERM")
        #expect(StopSignals.name(SIGHUP) == "SIGHUP")
    }
}
