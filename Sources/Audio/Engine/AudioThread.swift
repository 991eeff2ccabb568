import Glibc

/// A joinable POSIX thread for the capture loop and the writer.
///
/// Dispatch queues share a pool and may run other work between items; the capture
/// loop blocks in `snd_pcm_readi` for whole periods and must not starve or be
/// starved, so it gets a thread of its own.
///
/// `join()` (or `detach()`) must be called once: owners keep the thread in a `Mutex` and take it
/// out to join.
package final class AudioThread: Sendable {
    private let thread: pthread_t?

    /// Starts `body` on a new thread.
    package init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var handle = pthread_t()
        let status = pthread_create(&handle, nil, { argument in
            guard let argument else { return nil }
            let body = Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue()
            body.run()
            return nil
        }, box)
        if status == 0 {
            thread = handle
        } else {
            thread = nil
            // Creating a thread only fails when the process is out of resources;
            // run the work inline so that nothing is silently skipped.
            Unmanaged<ThreadBody>.fromOpaque(box).takeRetainedValue().run()
        }
    }

    /// Waits for the thread to finish. Call once (and not after `detach()`).
    package func join() {
        guard let thread else { return }
        pthread_join(thread, nil)
    }

    /// Lets the thread finish on its own, unjoined: for a thread stuck in a call that does not
    /// return (alsa-lib waiting for a sound server that stopped answering). Call once, instead
    /// of `join()`.
    package func detach() {
        guard let thread else { return }
        pthread_detach(thread)
    }
}

private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Runs `body` on a thread nobody joins: for work that may never return (closing a device
/// whose sound server has stopped answering) and must not hold up the caller.
enum DetachedThread {
    static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var handle = pthread_t()
        let status = pthread_create(&handle, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().run()
            return nil
        }, box)
        if status == 0 {
            pthread_detach(handle)
        } else {
            Unmanaged<ThreadBody>.fromOpaque(box).takeRetainedValue().run()
        }
    }
}
