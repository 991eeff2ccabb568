import CFFmpeg
import Glibc
import Synchronization

/// What FFmpeg's interrupt callback asks while a call blocks on the network: stop now (the
/// owner asked), or the deadline for this call passed (no data for the timeout).
///
/// FFmpeg polls the callback about every 100 ms inside network waits, so a stop or a timeout
/// ends a blocked `avio_open2`, `avformat_open_input` or `av_read_frame` within 0.1 s.
public final class StreamInterruption: Sendable {
    private let stopRequested = Atomic<Bool>(false)
    /// CLOCK_MONOTONIC nanoseconds after which the current call gives up; 0 for none.
    private let deadline = Atomic<Int64>(0)
    private let timedOut = Atomic<Bool>(false)

    public init() {}

    public func requestStop() { stopRequested.store(true, ordering: .relaxed) }
    public var isStopRequested: Bool { stopRequested.load(ordering: .relaxed) }

    /// Arms the deadline `seconds` from now (a new call begins).
    func arm(seconds: Double) {
        timedOut.store(false, ordering: .relaxed)
        deadline.store(Self.now() + Int64(seconds * 1e9), ordering: .relaxed)
    }

    /// Whether the last interrupted call ran out of time (rather than being stopped).
    var didTimeOut: Bool { timedOut.load(ordering: .relaxed) }

    /// The callback's answer: 1 to interrupt.
    func shouldInterrupt() -> Bool {
        if isStopRequested { return true }
        let limit = deadline.load(ordering: .relaxed)
        if limit != 0, Self.now() > limit {
            timedOut.store(true, ordering: .relaxed)
            return true
        }
        return false
    }

    /// An `AVIOInterruptCB` pointing at this object; valid while the object lives.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<StreamInterruption>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt() ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(self).toOpaque())
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
