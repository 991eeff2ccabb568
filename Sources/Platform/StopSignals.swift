import Glibc
import Synchronization

/// SIGINT, SIGTERM and SIGHUP as a flag a command polls, so that it stops cleanly
/// (finalises the file, keeps the memo) instead of dying mid-write.
///
/// A plain `sigaction` handler that stores into a lock-free atomic (async-signal-safe).
/// Dispatch signal sources are no use here: on Linux they read a `signalfd`, which only
/// sees signals that every thread blocks, and a signal set to SIG_IGN is discarded
/// before any of that. The signals are also unblocked, since a parent may have started
/// us with them blocked (test runners do), which would make us unstoppable.
///
/// SIGXFSZ is ignored for the life of the process: a file-size limit then makes writes
/// fail with EFBIG, which the writer reports, instead of killing us mid-recording.
///
/// While installed, a stop signal also ends a wait for an ALSA device to open (`ALSAPCM`
/// asks `isInstalled` and `pending`): the pulse plugin waits 30 s for a server that does not
/// answer. The command then reports the interruption (`interruptedWhileOpening(_:)`).
public enum StopSignals {
    /// The first stop signal received since `install()`, or 0.
    private static let received = Atomic<Int32>(0)

    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// How many `install()`s are not yet `uninstall()`ed: the handlers stay until the
    /// outermost one is undone, so a step that installs them for itself (opening the library
    /// while `record` already has them) does not open a window of default actions.
    private static let depth = Atomic<Int>(0)

    /// Installs the handlers and unblocks the signals. Call from the main thread before
    /// starting other threads, so that they inherit the mask. Nests: see `depth`.
    public static func install() {
        guard depth.add(1, ordering: .relaxed).oldValue == 0 else { return }
        _ = received.load(ordering: .relaxed)  // initialise before a handler can run
        signal(SIGXFSZ, SIG_IGN)
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                _ = StopSignals.received.compareExchange(expected: 0, desired: number, ordering: .relaxed)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
            sigaddset(&mask, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    /// Puts the default actions back (a second Ctrl-C after the command is done kills as usual),
    /// when this undoes the outermost `install()`.
    public static func uninstall() {
        guard depth.subtract(1, ordering: .relaxed).newValue == 0 else { return }
        for number in handled { signal(number, SIG_DFL) }
    }

    /// When opening a device failed because a stop signal came: what to say (exit 130);
    /// `nil` when no signal came (the failure is the device's).
    ///
    /// - Parameter what: "the input", "the playback device".
    public static func interruptedWhileOpening(_ what: String) -> String? {
        pending.map { "interrupted by \(name($0)) while \(what) was opening" }
    }

    /// Whether the handlers are installed (a command is running that stops on a signal).
    public static var isInstalled: Bool { depth.load(ordering: .relaxed) > 0 }

    /// The signal that asked us to stop, if one did.
    public static var pending: Int32? {
        let number = received.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// The signal's name, e.g. "SIGTERM".
    public static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}
