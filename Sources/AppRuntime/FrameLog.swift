import Glibc

/// `VOICEMEMO_FRAME_LOG=PATH`: the app writes one line per frame it draws, so a benchmark
/// can find the longest gap between frames while slow work runs beside the loop.
///
/// Each line is `SECONDS WORK PROMPT`: `CLOCK_MONOTONIC` seconds (the same clock in every
/// process, so a driver can compare it with when it pressed a key), how many pieces of work
/// were in flight, and 1 while the title prompt is up. Lines are gathered in memory and
/// written 4 kB at a time and at exit: a frame costs a clock read and a few bytes.
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

    /// Notes a frame drawn now.
    func frame(work: Int, prompt: Bool) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = String(now.tv_nsec)
        let line = "\(now.tv_sec).\(String(repeating: "0", count: max(9 - nanoseconds.count, 0)))\(nanoseconds) \(work) \(prompt ? 1 : 0)\n"
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
