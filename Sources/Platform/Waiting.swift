import Dispatch

/// The one "wait for something, and meanwhile keep the person informed" loop: a recording's
/// stop while its encoder catches up, playback until its end, a device's open that a signal may
/// abandon. Whatever is waited for signals a semaphore; `tick` runs on the waiting thread at once
/// and then every interval (progress, the live line, a key, a stop signal) and may end the wait.
package enum Waiting {
    /// Calls `tick` at once (or, `tickingAtOnce` false, after the first interval) and then every
    /// `milliseconds` until `done` is signalled or `tick` returns `false`.
    ///
    /// - Returns: Whether `done` was signalled (`false`: `tick` ended the wait).
    @discardableResult
    package static func wait(
        for done: DispatchSemaphore, every milliseconds: Int = 100, tickingAtOnce: Bool = true, _ tick: () -> Bool
    ) -> Bool {
        if !tickingAtOnce, done.wait(timeout: .now() + .milliseconds(milliseconds)) == .success { return true }
        while tick() {
            if done.wait(timeout: .now() + .milliseconds(milliseconds)) == .success { return true }
        }
        return false
    }

    /// Runs `work` on a thread of its own (`JoinableThread`, named `name`) and returns once it
    /// is done, calling `tick` on the calling thread at once and then every `milliseconds`
    /// meanwhile.
    package static func run(
        _ name: String, every milliseconds: Int = 100, _ work: @escaping @Sendable () -> Void, whileWaiting tick: () -> Void
    ) {
        let done = DispatchSemaphore(value: 0)
        let thread = JoinableThread(name: name) {
            work()
            done.signal()
        }
        wait(for: done, every: milliseconds) {
            tick()
            return true
        }
        thread.join()
    }
}
