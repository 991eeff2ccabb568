import Glibc
import Platform

/// `VOICEMEMO_FRAME_LOG=PATH`: the app writes one line per frame it draws, so a benchmark
/// can find the longest gap between frames while slow work runs beside the loop.
///
/// Each line is `SECONDS WORK PROMPT PEAK` (`FrameLogLine`): `CLOCK_MONOTONIC` seconds (the
/// same clock in every process, so a driver can compare it with when it pressed a key or played
/// a sound), how many pieces of work were in flight, 1 while the title prompt is up, and the
/// highest channel peak the meter shows in the frame (dBFS, the tick's `ChannelMeter.peak`:
/// what the input reached since the tick before; −160 without an input), so a driver can tell
/// which frame first shows a sound. Lines are gathered in memory and written 4 kB at a time
/// and at exit: a frame costs a clock read and a few bytes.
final class FrameLog {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Creates (or empties) the file; `nil` when it cannot be opened (the app runs without it).
    init?(path: String) {
        let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard opened >= 0 else { return nil }
        descriptor = opened
        buffer.reserveCapacity(8192)
    }

    /// Notes a frame drawn now, showing `peakDB`.
    func frame(work: Int, prompt: Bool, peakDB: Float) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let line = FrameLogLine.text(
            seconds: now.tv_sec, nanoseconds: now.tv_nsec, work: work, prompt: prompt, peakDB: peakDB)
        buffer.append(contentsOf: line.utf8)
        if buffer.count >= 4096 { flush() }
    }

    /// Writes what is gathered and closes the file.
    func close() {
        flush()
        _ = Glibc.close(descriptor)
    }

    private func flush() {
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let written = write(descriptor, base + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { break }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
