import Glibc
import SoundFiles
import Synchronization

/// The free space a recording leaves on its disk, so that what comes after the audio (the
/// file's header, the memo index's write-ahead log) still fits when the disk fills.
///
/// The writer thread asks before each block it writes; when the file system's free space
/// (`statvfs`, blocks available to unprivileged users) is below `bytes`, the recording stops
/// as if the disk were full: a `.diskFull` error with ENOSPC, so every caller words it as it
/// words a real full disk. A file system whose free space cannot be read is assumed to have room.
///
/// `statvfs` is not called for every block (see `Allowance`): only when this writer may have
/// used half the headroom it last saw, or 100 ms after the last call (other programs may be
/// filling the disk too). A real-time recording writes a block about every 100 ms and is
/// checked about as often as before; an unpaced source (a file, a benchmark) is not slowed by
/// one `statvfs` per 0.1 s of audio.
package final class FreeSpaceReserve: Sendable {
    /// The default: 256 KiB, far more than finishing a memo writes to the index (a few
    /// 4 KiB pages of write-ahead log) plus the sound file's header and trailer.
    static let defaultBytes = 256 * 1024

    /// The file being written; its directory's file system is the one checked.
    package let path: String
    package let bytes: Int

    private let allowance = Mutex(Allowance())
    private let origin = ContinuousClock.now

    package init(path: String, bytes: Int) {
        self.path = path
        self.bytes = bytes
    }

    /// Throws `.diskFull` (ENOSPC) when less than `bytes` are free (asking the file system
    /// only when `Allowance` says so).
    ///
    /// - Parameter count: the bytes about to be written.
    package func check(beforeWriting count: Int) throws(SoundFileError) {
        let now = ContinuousClock.now - origin
        guard allowance.withLock({ $0.mustAsk(beforeWriting: count, at: now) }) else { return }
        let available = availableBytes()
        allowance.withLock { $0.asked(available: available, reserve: bytes, beforeWriting: count, at: now) }
        guard let available, available < bytes else { return }
        throw SoundFileError(
            kind: .diskFull, path: path,
            detail: "\(available / 1024) kB left, kept free for the memo index", osError: ENOSPC)
    }

    /// The folder, not the file: an M4A's file does not exist until it is complete
    /// (`statvfs` of it failed, and the recording ran into a real ENOSPC).
    private func availableBytes() -> Int? {
        var info = statvfs()
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard statvfs(folder, &info) == 0 else { return nil }
        return Int(info.f_bavail) &* Int(info.f_frsize)
    }

    /// When the writer must ask the file system again (pure; time is passed in).
    ///
    /// After an answer of `available` bytes, the writer may write half the headroom above the
    /// reserve without asking, for at most `recheckInterval`. Its own writes therefore never
    /// take it more than one block into the reserve, as when it asked before every block;
    /// near the reserve it asks before every block again.
    struct Allowance {
        /// The longest the writer goes without asking.
        static let recheckInterval = Duration.milliseconds(100)

        private var askedAt: Duration?
        private var remaining = 0

        /// Whether to ask before writing `count` bytes at `now`; if not, the bytes are counted.
        mutating func mustAsk(beforeWriting count: Int, at now: Duration) -> Bool {
            guard let askedAt, now - askedAt < Self.recheckInterval, count <= remaining else { return true }
            remaining -= count
            return false
        }

        /// Records an answer (`nil`: the free space could not be read, ask again next time).
        mutating func asked(available: Int?, reserve: Int, beforeWriting count: Int, at now: Duration) {
            guard let available else {
                askedAt = nil
                return
            }
            askedAt = now
            remaining = max(0, (available - reserve) / 2 - count)
        }
    }
}
