import Platform
import Glibc

/// Files to remove if SIGINT, SIGTERM or SIGHUP ends the process while some work runs: an
/// export's hidden copy and its lossy writer's intermediate at the destination, which nothing
/// else would ever remove there (`ExportLeftovers`), and `export -`'s private folder. The
/// handler only `unlink`s (or, for an empty folder, `rmdir`s: both safe in a signal handler)
/// the paths prepared beforehand, in their order, then lets the signal end the process as it
/// would have: the exit status still says which signal it was.
enum SignalCleanup {
    /// The paths, as a NULL-terminated array of C strings the handler walks.
    nonisolated(unsafe) private static var pending: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Runs `body` with `files` removed on a stop signal; the previous handlers come back after.
    /// Call from the main thread; does not nest.
    static func removing<Result, Failure: Error>(_ files: [String], _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: files.count + 1)
        for (index, file) in files.enumerated() { array[index] = strdup(file) }
        array[files.count] = nil
        pending = array
        var previous: [Int32: sigaction] = [:]
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                if var cursor = SignalCleanup.pending {
                    while let path = cursor.pointee {
                        if unlink(path) != 0 { rmdir(path) }
                        cursor += 1
                    }
                }
                signal(number, SIG_DFL)
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            sigaction(number, &action, &old)
            previous[number] = old
        }
        defer {
            for number in signals {
                if var old = previous[number] { sigaction(number, &old, nil) }
            }
            pending = nil
            for index in 0..<files.count { free(array[index]) }
            array.deallocate()
        }
        return try body()
    }
}
