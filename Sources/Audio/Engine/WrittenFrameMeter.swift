import Metering
import SoundFiles

/// A memo's statistics on the writer thread: frames already written to the file wait here,
/// copied out of the ring, until the writer has nothing to write, and are measured then.
///
/// So measuring does not hold back the file: a kill -9 loses what was not written, never what
/// was not measured (recovery measures the file). With optimised meters (457× real time) the
/// queue is empty after every round of a live input. At most `maximumPendingSeconds` wait:
/// beyond that (an unpaced source that always has audio waiting, or meters slower than the
/// audio — an unoptimised build, many recordings at once) the oldest are measured at once,
/// before more is written, as if measuring were inline.
struct WrittenFrameMeter {
    private(set) var meter: ProgrammeMeter
    private let format: StreamFormat
    /// Written, not yet measured: whole frames from `start` on.
    private var pending: [UInt8] = []
    private var start = 0

    /// The most audio that waits to be measured (its memory: 768 kB for 48 kHz 16-bit stereo).
    static let maximumPendingSeconds = 4
    private let maximumPendingBytes: Int

    init(format: StreamFormat) {
        self.format = format
        meter = ProgrammeMeter(channels: format.channels, sampleRate: format.sampleRate)
        maximumPendingBytes = Self.maximumPendingSeconds * format.sampleRate * format.bytesPerFrame
    }

    /// Queues `count` frames that were just written; measures the oldest at once when more
    /// than `maximumPendingSeconds` would wait.
    mutating func append(_ frames: UnsafeRawPointer, count: Int) {
        pending.append(contentsOf: UnsafeRawBufferPointer(start: frames, count: count * format.bytesPerFrame))
        let excess = pending.count - start - maximumPendingBytes
        if excess > 0 { _ = measurePending(upTo: (excess + format.bytesPerFrame - 1) / format.bytesPerFrame) }
    }

    /// Whether written frames wait to be measured.
    private var hasPending: Bool { start < pending.count }

    /// Measures up to `limit` queued frames, oldest first; returns whether any remain.
    mutating func measurePending(upTo limit: Int) -> Bool {
        let bytesPerFrame = format.bytesPerFrame
        let frames = min(limit, (pending.count - start) / bytesPerFrame)
        guard frames > 0 else { return false }
        let samples = frames * format.channels
        let sampleFormat = format.sampleFormat
        let offset = start
        // Array storage is 16-byte aligned and `offset` a multiple of the frame size, so the
        // samples are aligned.
        pending.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            sampleFormat.deliver(base + offset, samples: samples, to: &meter)
        }
        start += frames * bytesPerFrame
        if start == pending.count {
            pending.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= pending.count / 2 {
            // Measured bytes are at least half the queue: removing them costs no more than
            // measuring them did.
            pending.removeSubrange(0..<start)
            start = 0
        }
        return hasPending
    }
}
