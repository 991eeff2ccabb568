import Audio
import SoundFiles

/// The most recent captured frames, addressed by device frame number: the pre-roll,
/// and the audio of takes whose file is not open yet.
///
/// Used on the capture side only (one thread at a time, under the tap's lock), so it
/// needs no atomics. The storage is allocated once, up front. `@unchecked Sendable` for that
/// lock, which is the tap's: moved into a `Mutex`'s state, the frames' buffers failed to
/// compile ("'inout sending' parameter cannot be task-isolated").
final class FrameHistory: @unchecked Sendable {
    /// Frames the history holds.
    let capacity: Int
    private let bytesPerFrame: Int
    private let storage: UnsafeMutableRawPointer
    /// The first frame ever appended.
    private(set) var firstFrame: Int
    /// One past the last frame appended.
    private(set) var endFrame: Int

    init(capacity: Int, bytesPerFrame: Int, firstFrame: Int) {
        self.capacity = max(1, capacity)
        self.bytesPerFrame = bytesPerFrame
        storage = UnsafeMutableRawPointer.allocate(byteCount: self.capacity * bytesPerFrame, alignment: 64)
        self.firstFrame = firstFrame
        endFrame = firstFrame
    }

    deinit {
        storage.deallocate()
    }

    /// The oldest frame still held.
    var oldestFrame: Int { max(firstFrame, endFrame - capacity) }

    /// Appends `frames` frames that follow the last ones (a jump in numbering starts afresh).
    func append(_ buffer: UnsafeRawPointer, frames: Int, firstFrame first: Int) {
        if first != endFrame {
            firstFrame = first
            endFrame = first
        }
        // Of a chunk longer than the history, only its last `capacity` frames can be kept.
        var copied = max(0, frames - capacity)
        while copied < frames {
            let position = (first + copied) % capacity
            let run = min(frames - copied, capacity - position)
            (storage + position * bytesPerFrame).copyMemory(
                from: buffer + copied * bytesPerFrame, byteCount: run * bytesPerFrame)
            copied += run
        }
        endFrame = first + frames
    }

    /// Hands the held frames in `[from, to)` to `body` as at most two contiguous runs,
    /// each with its first frame number. Frames no longer (or not yet) held are skipped.
    func withFrames(from: Int, to: Int, _ body: (UnsafeRawPointer, _ frames: Int, _ firstFrame: Int) -> Void) {
        var frame = max(from, oldestFrame)
        let end = min(to, endFrame)
        while frame < end {
            let position = frame % capacity
            let run = min(end - frame, capacity - position)
            body(storage + position * bytesPerFrame, run, frame)
            frame += run
        }
    }
}
