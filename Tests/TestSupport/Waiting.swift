import Foundation

/// A test's wait that gave up: what it waited for, and for how long.
public struct GaveUpWaiting: Error, CustomStringConvertible {
    public let what: String
    public let seconds: Double

    public init(what: String, seconds: Double) {
        self.what = what
        self.seconds = seconds
    }

    public var description: String { "gave up after \(seconds) s waiting for \(what)" }
}

/// Polls `condition` every `interval` until it holds, for at most `seconds`.
///
/// The tests wait on the thing itself (a frame count, a flag), not for a time, but never for
/// ever: a condition that never comes fails the test, saying what it waited for, instead of
/// hanging the whole run.
///
/// - Parameters:
///   - what: what is awaited, as the failure will say it ("the engine to reach the file's end");
///     worded when the wait gives up, so it can say how far things got.
///   - seconds: the deadline, far above what the wait takes on a loaded machine.
///   - interval: how often `condition` is asked.
/// - Throws: ``GaveUpWaiting`` naming `what`, once `seconds` have passed without `condition`.
public func wait(
    for what: @autoclosure () -> String, atMost seconds: Double = 60, polling interval: Duration = .milliseconds(1),
    until condition: () -> Bool
) throws(GaveUpWaiting) {
    guard poll(seconds: seconds, interval: interval, condition) else {
        throw GaveUpWaiting(what: what(), seconds: seconds)
    }
}

/// Polls `condition` every 5 ms for up to `seconds`; whether it held (for `#expect`).
public func waitUntil(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    poll(seconds: seconds, interval: .milliseconds(5), condition)
}

private func poll(seconds: Double, interval: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    let microseconds = useconds_t(interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(microseconds)
    }
    return condition()
}
