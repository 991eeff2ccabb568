import CNCursesW
import Dispatch
import Platform
import Glibc
import Synchronization

/// While the full screen is up, what anything writes to standard error (file descriptor 2)
/// goes into a pipe instead of over the screen: libmpg123's "Note: Illegal Audio-MPEG-Header",
/// ALSA's "ALSA lib …", a library's warning. curses draws on standard output, so it is not
/// affected. The last lines are kept (`capturedLines`); `restore()` gives fd 2 back.
///
/// The redirect goes through `StandardErrorRoute`, which also silences C decoders around
/// their calls (fd 2 at `/dev/null` then): the two nest in any order.
///
/// A fatal signal while captured puts fd 2 back first (`voicememo_set_fatal_stderr`) and writes
/// there the last 2 kB written while captured and what the pipe still holds, so a crash's own
/// words (Swift's "Fatal error: …", written just before its trap) reach the terminal.
final class StandardErrorCapture: Sendable {
    /// The most lines kept.
    static let keptLines = 50

    private let saved: Int32
    private let writeEnd: Int32
    private let drained = DispatchSemaphore(value: 0)
    private let state = Mutex(State())

    private struct State {
        var lines: [String] = []
        var partial: [UInt8] = []
        var restored = false
    }

    /// Redirects fd 2 into a pipe, or returns `nil` (leaving fd 2 as it is) when a pipe or a
    /// duplicate cannot be made.
    init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // Writers never block on a full pipe: a flood is dropped, not waited for.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        // Through the route, so a decoder silenced meanwhile neither undoes this nor is undone.
        guard let saved = StandardErrorRoute.redirect(to: ends[1]) else {
            close(ends[0])
            close(ends[1])
            return nil
        }
        self.saved = saved
        writeEnd = ends[1]
        let readEnd = ends[0]
        voicememo_set_fatal_stderr(saved, readEnd)
        DispatchQueue(label: "voicememo.stderr-capture").async { [self] in
            drain(readEnd)
        }
    }

    /// The last lines written to standard error while captured, oldest first.
    var capturedLines: [String] {
        state.withLock { $0.lines }
    }

    /// Puts the original fd 2 back and waits for what was written before to be read.
    /// Idempotent.
    func restore() {
        let first = state.withLock { state -> Bool in
            defer { state.restored = true }
            return !state.restored
        }
        guard first else { return }
        voicememo_set_fatal_stderr(-1, -1)
        StandardErrorRoute.restore(saved)
        close(writeEnd)
        // A child process that inherited fd 2 could keep the pipe open: do not wait on it for long.
        _ = drained.wait(timeout: .now() + .milliseconds(500))
    }

    private func drain(_ readEnd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            buffer.withUnsafeBytes { voicememo_fatal_note_stderr($0.baseAddress?.assumingMemoryBound(to: CChar.self), count) }
            state.withLock { state in
                for byte in buffer[0..<count] {
                    if byte == UInt8(ascii: "\n") {
                        state.lines.append(String(decoding: state.partial, as: UTF8.self))
                        state.partial.removeAll(keepingCapacity: true)
                        if state.lines.count > Self.keptLines { state.lines.removeFirst(state.lines.count - Self.keptLines) }
                    } else if state.partial.count < 4096 {
                        state.partial.append(byte)
                    }
                }
            }
        }
        close(readEnd)
        drained.signal()
    }
}
