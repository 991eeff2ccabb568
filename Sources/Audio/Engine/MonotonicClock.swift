import Glibc

/// Where the engine reads the time at which frames arrive: the system's monotonic clock,
/// or a clock a test steps by hand.
public struct MonotonicClock: Sendable {
    /// Nanoseconds on a clock that never goes back (its origin is arbitrary).
    public let nanoseconds: @Sendable () -> Int

    public init(nanoseconds: @escaping @Sendable () -> Int) {
        self.nanoseconds = nanoseconds
    }

    /// `CLOCK_MONOTONIC`: allocation-free, so the capture thread may read it.
    public static let system = MonotonicClock {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec)
    }
}
