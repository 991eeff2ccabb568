import Glibc
import Synchronization

/// How slow work gives way to the work a person is waiting on.
///
/// The UI queue, the capture thread and the writer run at the process's own priority (nice 0).
/// Work that can take a core for seconds or minutes runs lower, so that on a busy machine the
/// screen and the recording get a core first: the app's exports and edits and the encoder's
/// backlog after a stop at `heavy` (10: still most of a core on an idle machine, about a tenth
/// of one beside a nice-0 thread that wants it), encoding while recording and the background
/// transcription at `idle` (19: only what nothing else wants).
///
/// On Linux the nice value belongs to a thread (`setpriority(PRIO_PROCESS, 0, …)` is the calling
/// thread), and an unprivileged process cannot raise it again: lower only a thread of your
/// own that ends with the work, never a Dispatch worker that runs other work afterwards.
public enum BackgroundPriority: Int32, Sendable {
    case heavy = 10
    case idle = 19

    /// Lowers the calling thread to this priority, for the rest of its life; a thread already
    /// lower (`nice -n 15 voicememo`) stays where it is.
    public func lowerCallingThread() {
        guard Self.callingThreadNice() < rawValue else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, rawValue)
    }

    /// The calling thread's nice value (`getpriority`), for tests and diagnostics.
    public static func callingThreadNice() -> Int32 {
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    /// Runs `work` on a thread of its own at this priority and returns its result once it
    /// is done: the caller waits (a runner's serial queue stays one job at a time), only the
    /// work itself is lowered.
    ///
    /// `work` is `sending`: what it captures is handed to that thread, so the caller may not
    /// touch it meanwhile (the compiler checks; a closure over `Sendable` values always goes).
    public func run<T>(_ work: sending @escaping () -> T) -> T {
        let slot = ResultSlot(work)
        let priority = self
        JoinableThread { [slot] in
            priority.lowerCallingThread()
            slot.run()
        }.join()
        return slot.take()
    }
}

/// Carries the work to its thread and the result back, in a `Mutex` (so `Sendable` without
/// promises): the work goes in as `sending`, runs under the lock on the work's thread (nobody
/// else takes it meanwhile: the caller waits in `join`), and its result comes out as `sending`.
private final class ResultSlot<T>: Sendable {
    private enum Stage {
        case work(() -> T)
        case done(T)
        case taken
    }

    private let stage: Mutex<Stage>

    init(_ work: sending @escaping () -> T) { stage = Mutex(.work(work)) }

    func run() {
        stage.withLock { stage in
            guard case .work(let work) = stage else { return }
            stage = .done(work())
        }
    }

    func take() -> sending T {
        let result: T? = stage.withLock { stage in
            guard case .done(let result) = stage else { return nil }
            stage = .taken
            return result
        }
        guard let result else { fatalError("BackgroundPriority.run: the work's thread ended without a result") }
        return result
    }
}
