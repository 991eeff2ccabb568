import Synchronization

/// The lock of a type whose guarded state lives beside it (libsndfile's handle, counters): the
/// project's one kind of lock, `Mutex`, holding no value.
final class StateLock: Sendable {
    private let mutex = Mutex(())

    /// Runs `body` holding the lock, keeping `body`'s typed error.
    func locked<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try mutex.withLock { _ throws(Failure) -> Result in try body() }
    }
}
