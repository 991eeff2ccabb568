import Glibc

/// The one way the project starts a thread of its own: a joinable POSIX thread (the capture
/// loop, the writer, the encoder, the player, the transcription, work lowered by
/// `BackgroundPriority`), or `DetachedThread` for work nobody waits for.
///
/// Dispatch queues share a pool and may run other work between items; the capture
/// loop blocks in `snd_pcm_readi` for whole periods and must not starve or be
/// starved, and a priority lowered on a pool thread would stay with the pool, so each
/// of these gets a thread of its own.
///
/// `join()` (or `detach()`) must be called once: owners keep the thread in a `Mutex` and take it
/// out to join.
package final class JoinableThread: Sendable {
    private let thread: pthread_t?

    /// Starts `body` on a new thread, named `name` (at most 15 bytes: what `top -H` and gdb show).
    package init(name: String? = nil, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(name: name, body)).toOpaque()
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
    private let name: String?
    private let body: @Sendable () -> Void

    init(name: String?, _ body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    func run() {
        if let name { Self.nameCallingThread(name) }
        body()
    }

    /// `pthread_setname_np`, which Swift's Glibc does not export: the kernel keeps a thread's
    /// name in its `comm` file (15 bytes; a longer one is cut there).
    private static func nameCallingThread(_ name: String) {
        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        _ = name.withCString { write(file, $0, min(strlen($0), 15)) }
        close(file)
    }
}

/// Runs `body` on a thread nobody joins: for work that may never return (closing a device
/// whose sound server has stopped answering) and must not hold up the caller.
package enum DetachedThread {
    package static func start(name: String? = nil, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(name: name, body)).toOpaque()
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
