import Foundation

extension NSLock {
    /// Runs `body` holding the lock, keeping `body`'s typed error (Foundation's `withLock` erases it).
    func locked<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
