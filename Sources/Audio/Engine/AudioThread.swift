import Glibc

/// A joinable POSIX thread for the capture loop and the writer.
///
/// Dispatch queues share a pool and may run other work between items; the capture
/// loop blocks in `snd_pcm_readi` for whole periods and must not starve or be
/// starved, so it gets a thread of its own.
final class AudioThread {
    private var thread: pthread_t?

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
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
            // Creating a thread only fails when the process is out of resources;
            // run the work inline so that nothing is silently skipped.
            Unmanaged<ThreadBody>.fromOpaque(box).takeRetainedValue().run()
        }
    }

    /// Waits for the thread to finish. Idempotent.
    func join() {
        guard let thread else { return }
        self.thread = nil
        pthread_join(thread, nil)
    }

    /// Whether the calling thread is this thread.
    var isCurrent: Bool {
        guard let thread else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }
}

private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
