import Dispatch
import Glibc

/// Turns SIGINT, SIGTERM and SIGHUP into a callback on a queue, so that a command
/// can stop cleanly (finalise the file, keep the memo) instead of dying mid-write.
///
/// SIGXFSZ is ignored for the life of the process: a file-size limit then makes
/// writes fail with EFBIG, which the writer reports, instead of killing us.
final class SignalWatcher {
    private var sources: [DispatchSourceSignal] = []

    /// Starts watching; `handler` runs on `queue` with the signal number, once per delivery.
    init(_ signals: [Int32] = [SIGINT, SIGTERM, SIGHUP], queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        signal(SIGXFSZ, SIG_IGN)
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops watching and restores the default dispositions.
    func cancel() {
        for source in sources {
            source.cancel()
            signal(Int32(source.handle), SIG_DFL)
        }
        sources.removeAll()
    }

    deinit {
        cancel()
    }
}
