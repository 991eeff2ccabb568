import CFFmpeg
import CFFmpegLoader
import Glibc
import Synchronization

/// What FFmpeg's interrupt callback asks while a call blocks on the network: stop now (the
/// owner asked), the deadline passed (no byte for the timeout: `StreamConnection` re-arms it at
/// each byte that arrives), or the server redirected to a scheme a stream is not followed to.
///
/// FFmpeg polls the callback about every 100 ms inside network waits, so a stop or a timeout
/// ends a blocked `avio_open2`, `avformat_open_input` or `av_read_frame` within 0.1 s, and a
/// refused redirect ends before FFmpeg connects to its target (the callback runs on the thread
/// that reads, so it sees that thread's header log: `vm_http_locations`).
public final class StreamInterruption: Sendable {
    private let stopRequested = Atomic<Bool>(false)
    /// CLOCK_MONOTONIC nanoseconds after which the current call gives up; 0 for none.
    private let deadline = Atomic<Int64>(0)
    private let timedOut = Atomic<Bool>(false)
    /// Location headers looked at since the connection began.
    private let locationsSeen = Atomic<Int>(0)
    private let refused = Mutex<String?>(nil)
    private let headersOverflowed = Atomic<Bool>(false)

    /// The most header bytes a connection reads before it is given up as not an audio stream
    /// (a server sending header lines for ever; FFmpeg keeps every `icy-*` line in memory).
    public static let headerLimit = 64 * 1024

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

    /// A connection begins (after `vm_http_status_reset`): no redirect seen yet.
    func beginConnection() {
        locationsSeen.store(0, ordering: .relaxed)
        refused.withLock { $0 = nil }
        headersOverflowed.store(false, ordering: .relaxed)
    }

    /// Whether the connection was given up for headers past `headerLimit`.
    var didOverflowHeaders: Bool { headersOverflowed.load(ordering: .relaxed) }

    /// The Location of a redirect to another scheme than http(s), once one was seen.
    var refusedRedirect: String? { refused.withLock { $0 } }

    /// The callback's answer: 1 to interrupt.
    func shouldInterrupt() -> Bool {
        if isStopRequested { return true }
        let locations = Int(vm_http_locations())
        if locations != locationsSeen.load(ordering: .relaxed) {
            locationsSeen.store(locations, ordering: .relaxed)
            let location = String(cString: vm_http_location_last())
            if !StreamRedirect.isFollowed(location) { refused.withLock { $0 = location } }
        }
        if refusedRedirect != nil { return true }
        if vm_http_header_bytes() > Self.headerLimit {
            headersOverflowed.store(true, ordering: .relaxed)
            return true
        }
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
