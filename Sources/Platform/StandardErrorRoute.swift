import Glibc
import Synchronization

/// Who writes on the process's standard error (fd 2), and where it goes.
///
/// Two kinds of writer share fd 2: VoiceMemo's own messages, and C libraries that print on
/// their own — libmpg123, inside libsndfile's MP3 decoder, prints "Note: Illegal
/// Audio-MPEG-Header…" and "Warning: Xing stream size off…" for a damaged MP3 with no way to
/// turn it off through libsndfile. This type owns fd 2 for both:
///
/// - `silencingLibraries(_:)` points fd 2 at `/dev/null` while a decoder is opened or read,
///   on any thread, nested or overlapping (fd 2 comes back when the last one ends);
/// - `write(_:)` is how VoiceMemo's own text goes out: to where fd 2 pointed before any
///   silencing, so a command's message printed meanwhile (another thread's, a live line
///   during `play`) is never lost;
/// - `redirect(to:)` / `restore(_:)` move that destination (the full-screen app's capture
///   pipe) without undoing a silence in progress or being undone by it.
///
/// One lock orders every change, so two threads never leave fd 2 pointing at the wrong place.
public enum StandardErrorRoute {
    private struct State {
        /// Silences in progress.
        var silences = 0
        /// Where our own writes go: fd 2 itself, or while silenced a duplicate of what fd 2 was.
        var destination: Int32 = STDERR_FILENO
        /// `/dev/null`, opened once, kept open.
        var nullDevice: Int32 = -1
    }

    private static let state = Mutex(State())

    /// Runs `body` with the C libraries' own text on fd 2 dropped; see the type's discussion.
    /// If `/dev/null` or a duplicate of fd 2 cannot be had, `body` runs with fd 2 as it is.
    public static func silencingLibraries<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        beginSilence()
        defer { endSilence() }
        return try body()
    }

    /// Writes `text` (UTF-8) where standard error goes, even while libraries are silenced.
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            state.withLock { state in writeAll(bytes, to: state.destination) }
        }
    }

    /// Points standard error at `descriptor` until `restore(_:)`: our own writes go there, and
    /// fd 2 too (at once, or when the silence in progress ends).
    ///
    /// - Returns: a duplicate of the previous destination, for `restore(_:)`, or `nil` (nothing
    ///   changed) when it cannot be made.
    public static func redirect(to descriptor: Int32) -> Int32? {
        state.withLock { state -> Int32? in
            let saved = fcntl(state.destination, F_DUPFD_CLOEXEC, 3)
            guard saved >= 0 else { return nil }
            guard dup2(descriptor, state.destination) >= 0 else {
                close(saved)
                return nil
            }
            return saved
        }
    }

    /// Puts back the destination `redirect(to:)` replaced, and closes `saved`.
    public static func restore(_ saved: Int32) {
        state.withLock { state in
            _ = dup2(saved, state.destination)
            close(saved)
        }
    }

    private static func beginSilence() {
        state.withLock { state in
            defer { state.silences += 1 }
            guard state.silences == 0 else { return }
            if state.nullDevice < 0 { state.nullDevice = open("/dev/null", O_WRONLY | O_CLOEXEC) }
            guard state.nullDevice >= 0 else { return }
            let saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
            guard saved >= 0 else { return }
            guard dup2(state.nullDevice, STDERR_FILENO) >= 0 else {
                close(saved)
                return
            }
            state.destination = saved
        }
    }

    private static func endSilence() {
        state.withLock { state in
            state.silences -= 1
            guard state.silences == 0, state.destination != STDERR_FILENO else { return }
            _ = dup2(state.destination, STDERR_FILENO)
            close(state.destination)
            state.destination = STDERR_FILENO
        }
    }

    private static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
        guard var next = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let written = Glibc.write(descriptor, next, left)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            left -= written
            next += written
        }
    }
}
