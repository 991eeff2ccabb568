import Synchronization

/// A lock-free single-producer, single-consumer ring of bytes between the capture
/// thread and the file writer.
///
/// The capture thread is the only writer and the writer thread the only reader
/// (PortAudio's pa_ringbuffer and miniaudio's ring buffers follow the same rule).
/// Capacity is a power of two so positions wrap with a mask; the two positions
/// grow without bound (an `Int` of bytes lasts far beyond any recording) and
/// their difference is the fill level. Neither side allocates, locks or blocks.
public final class RingBuffer: Sendable {
    /// Bytes the ring can hold.
    public let capacity: Int
    private let mask: Int
    // The storage is written by one side and read by the other only in regions the
    // positions hand over with release/acquire ordering, so plain access is safe.
    nonisolated(unsafe) private let storage: UnsafeMutableRawPointer
    private let writePosition = Atomic<Int>(0)
    private let readPosition = Atomic<Int>(0)

    /// Creates a ring holding at least `minimumCapacity` bytes (rounded up to a power of two).
    public init(minimumCapacity: Int) {
        var size = 1
        while size < max(minimumCapacity, 64) { size <<= 1 }
        capacity = size
        mask = size - 1
        storage = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
    }

    deinit {
        storage.deallocate()
    }

    /// Bytes waiting to be read.
    public var availableToRead: Int {
        writePosition.load(ordering: .acquiring) - readPosition.load(ordering: .acquiring)
    }

    /// Bytes that can be written without overwriting unread data.
    public var availableToWrite: Int {
        capacity - availableToRead
    }

    /// Producer side: copies up to `count` bytes in and returns how many fit.
    ///
    /// Bytes the producer has already put in place (at the start of `writableRegion()`) are
    /// not copied, only handed over.
    @discardableResult
    public func write(_ bytes: UnsafeRawPointer, count: Int) -> Int {
        let write = writePosition.load(ordering: .relaxed)
        let read = readPosition.load(ordering: .acquiring)
        let n = min(count, capacity - (write - read))
        guard n > 0 else { return 0 }
        let start = write & mask
        let first = min(n, capacity - start)
        if bytes != UnsafeRawPointer(storage + start) {
            (storage + start).copyMemory(from: bytes, byteCount: first)
        }
        if n > first {
            storage.copyMemory(from: bytes + first, byteCount: n - first)
        }
        writePosition.store(write + n, ordering: .releasing)
        return n
    }

    /// Producer side: the free space that follows the written bytes without wrapping, where the
    /// producer may put bytes itself (e.g. read from a device) and then hand them over with
    /// `write(_:count:)` from the region's start, which copies nothing. Empty when the ring is full.
    ///
    /// The consumer never reads the region before that `write`, so it stays the producer's.
    public func writableRegion() -> UnsafeMutableRawBufferPointer {
        let write = writePosition.load(ordering: .relaxed)
        let read = readPosition.load(ordering: .acquiring)
        let start = write & mask
        let count = min(capacity - (write - read), capacity - start)
        return UnsafeMutableRawBufferPointer(start: storage + start, count: count)
    }

    /// Consumer side: hands the readable bytes to `body` as at most two contiguous
    /// regions (before and after the wrap), then releases as many bytes as `body`
    /// returns having consumed. No copy is made.
    public func read(maximum: Int = .max, _ body: (UnsafeRawBufferPointer) throws -> Int) rethrows -> Int {
        var total = 0
        for _ in 0..<2 {
            let read = readPosition.load(ordering: .relaxed)
            let write = writePosition.load(ordering: .acquiring)
            let n = min(write - read, maximum - total)
            guard n > 0 else { break }
            let start = read & mask
            let contiguous = min(n, capacity - start)
            let consumed = try body(UnsafeRawBufferPointer(start: storage + start, count: contiguous))
            precondition(consumed >= 0 && consumed <= contiguous, "consumed more bytes than offered")
            readPosition.store(read + consumed, ordering: .releasing)
            total += consumed
            if consumed < contiguous { break }
        }
        return total
    }

    /// Consumer side: copies exactly `count` bytes out (across the wrap) if that
    /// many are readable, and returns whether it did.
    public func copyOut(into destination: UnsafeMutableRawPointer, count: Int) -> Bool {
        let read = readPosition.load(ordering: .relaxed)
        let write = writePosition.load(ordering: .acquiring)
        guard write - read >= count else { return false }
        let start = read & mask
        let first = min(count, capacity - start)
        destination.copyMemory(from: storage + start, byteCount: first)
        if count > first {
            (destination + first).copyMemory(from: storage, byteCount: count - first)
        }
        readPosition.store(read + count, ordering: .releasing)
        return true
    }

    /// Consumer side: hands every whole frame waiting in the ring to `body`, in place
    /// where they are contiguous; a frame split by the wrap is copied into `straddling`
    /// (at least `bytesPerFrame` bytes) and handed over on its own. Returns the frames
    /// consumed. If `body` throws, what it was given is not consumed.
    ///
    /// `maxFrames` bounds one call: against a producer faster than `body`, "every frame
    /// waiting" would never end (the app's UI queue drained an unpaced input for ever).
    @discardableResult
    public func readWholeFrames<E: Error>(
        bytesPerFrame: Int, straddling: UnsafeMutableRawPointer, maxFrames: Int = .max,
        _ body: (UnsafeRawPointer, _ frames: Int) throws(E) -> Void
    ) throws(E) -> Int {
        var total = 0
        while total < maxFrames, availableToRead >= bytesPerFrame {
            let read = readPosition.load(ordering: .relaxed)
            let write = writePosition.load(ordering: .acquiring)
            let start = read & mask
            let contiguous = min(write - read, capacity - start)
            let frames = min(contiguous / bytesPerFrame, maxFrames - total)
            if frames > 0 {
                try body(storage + start, frames)
                readPosition.store(read + frames * bytesPerFrame, ordering: .releasing)
                total += frames
            } else if copyOut(into: straddling, count: bytesPerFrame) {
                do {
                    try body(UnsafeRawPointer(straddling), 1)
                } catch {
                    readPosition.store(read, ordering: .releasing)
                    throw error
                }
                total += 1
            }
        }
        return total
    }
}
