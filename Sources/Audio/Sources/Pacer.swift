import Glibc

/// Paces a generated source to real time: `wait(untilFrame:)` sleeps until the
/// monotonic clock reaches the moment that frame would arrive from a device.
///
/// Sleeping to an absolute deadline (not for a relative interval) keeps the
/// long-run rate exact however late each wake-up is.
struct Pacer {
    let sampleRate: Int
    private var start: timespec?

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
    }

    /// Blocks until `frame` frames' worth of time has passed since the first call.
    mutating func wait(untilFrame frame: Int) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        guard let start else {
            self.start = now
            return
        }
        let seconds = frame / sampleRate
        let remainder = frame % sampleRate
        var deadline = start
        deadline.tv_sec += seconds
        deadline.tv_nsec += remainder * 1_000_000_000 / sampleRate
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }
}
