import Glibc
import SoundFiles

/// The free space a recording leaves on its disk, so that what comes after the audio (the
/// file's header, the memo index's write-ahead log) still fits when the disk fills.
///
/// The writer thread asks before each block it writes; when the file system's free space
/// (`statvfs`, blocks available to unprivileged users) is below `bytes`, the recording stops
/// as if the disk were full: a `.diskFull` error with ENOSPC, so every caller words it as it
/// words a real full disk. A file system whose free space cannot be read is assumed to have room.
struct FreeSpaceReserve: Sendable {
    /// The default: 256 KiB, far more than finishing a memo writes to the index (a few
    /// 4 KiB pages of write-ahead log) plus the sound file's header and trailer.
    static let defaultBytes = 256 * 1024

    /// The file being written; its directory's file system is the one checked.
    let path: String
    let bytes: Int

    /// Throws `.diskFull` (ENOSPC) when less than `bytes` are free.
    func check() throws(SoundFileError) {
        guard let available = availableBytes(), available < bytes else { return }
        throw SoundFileError(
            kind: .diskFull, path: path,
            detail: "\(available / 1024) kB left, kept free for the memo index", osError: ENOSPC)
    }

    private func availableBytes() -> Int? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int(info.f_bavail) &* Int(info.f_frsize)
    }
}
