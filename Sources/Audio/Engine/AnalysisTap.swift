import Dispatch
import SoundFiles
import Synchronization

/// Hands every captured frame to a consumer thread for analysis that is too heavy or
/// allocates too much for the capture thread (loudness gating, true peak).
///
/// The capture thread only copies into a lock-free ring, as for a recording; the owner
/// calls `drain` from its own loop. When the ring is full the capture thread waits
/// (like a recording does), so an unpaced source is never analysed with holes — or, for a
/// tap that only watches (the app's meter), it drops what does not fit and counts it, so a
/// stalled consumer can never hold up a recording on the same engine.
public final class AnalysisTap: CaptureTap, Sendable {
    /// What the capture thread does when the ring is full.
    public enum Overflow: Sendable {
        /// Wait for `drain` (no frame is ever skipped).
        case wait
        /// Drop the frames that do not fit (`droppedFrames` counts them).
        case drop
    }

    /// The format of the frames `drain` delivers (the engine's).
    public let format: StreamFormat
    private let ring: RingBuffer
    private let spaceFreed = DispatchSemaphore(value: 0)
    private let ended = Atomic<Bool>(false)
    private let detached = Atomic<Bool>(false)
    private let engine: CaptureEngine
    private let overflow: Overflow
    private let dropped = Atomic<Int>(0)
    nonisolated(unsafe) private let straddling: UnsafeMutableRawPointer

    /// Attaches to `engine`; frames captured from now on are kept for `drain`.
    ///
    /// - Parameters:
    ///   - seconds: how much audio the ring holds before it is full.
    ///   - overflow: what happens to frames that arrive while it is full.
    public init(engine: CaptureEngine, seconds: Double = 4, overflow: Overflow = .wait) {
        self.engine = engine
        self.overflow = overflow
        format = engine.format
        ring = RingBuffer(minimumCapacity: Int(seconds * Double(format.sampleRate)) * format.bytesPerFrame)
        straddling = UnsafeMutableRawPointer.allocate(byteCount: format.bytesPerFrame, alignment: 16)
        engine.attach(self)
    }

    deinit {
        detach()
        straddling.deallocate()
    }

    /// Stops receiving frames. Idempotent.
    public func detach() {
        guard !detached.exchange(true, ordering: .acquiringAndReleasing) else { return }
        spaceFreed.signal()
        engine.detach(self)
    }

    /// Frames dropped because the ring was full (always 0 with `.wait`).
    public var droppedFrames: Int { dropped.load(ordering: .relaxed) }

    /// Whether capture has ended (the source ran out or failed).
    public var captureHasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Hands the frames captured since the last call to `body` (whole frames, in one or
    /// more runs), at most `maxFrames` of them, and returns how many there were. Call from
    /// one thread.
    @discardableResult
    public func drain(maxFrames: Int = .max, _ body: (UnsafeRawPointer, _ frames: Int) -> Void) -> Int {
        let frames = ring.readWholeFrames(
            bytesPerFrame: format.bytesPerFrame, straddling: straddling, maxFrames: maxFrames, body)
        if frames > 0 { spaceFreed.signal() }
        return frames
    }

    package func capture(_ buffer: UnsafeRawPointer, frames: Int, firstFrame: Int) {
        let bytesPerFrame = format.bytesPerFrame
        var pushed = 0
        // Also stop waiting once the engine is stopping: its owner may be the thread that
        // drains this ring, now joining the capture thread (`meter` on a signal).
        while pushed < frames, !detached.load(ordering: .acquiring), !engine.isStopping {
            let fitting = min(frames - pushed, ring.availableToWrite / bytesPerFrame)
            if fitting > 0 {
                ring.write(buffer + pushed * bytesPerFrame, count: fitting * bytesPerFrame)
                pushed += fitting
            } else if overflow == .drop {
                dropped.wrappingAdd(frames - pushed, ordering: .relaxed)
                return
            } else {
                _ = spaceFreed.wait(timeout: .now() + .milliseconds(50))
            }
        }
    }

    package func captureEnded(error: CaptureError?) {
        ended.store(true, ordering: .releasing)
    }
}
