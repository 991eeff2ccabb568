import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The one place in MemoLibrary that makes file-system system calls.
///
/// Failures come back as `errno` values; callers turn them into `MemoLibraryError`.
enum FileSystem {
    /// One entry of a directory listing.
    struct Entry {
        var name: String
        /// `nil` when the listing was asked for names only.
        var size: Int64?
    }

    /// The regular files directly in `directory` (not hidden, not in subfolders).
    ///
    /// - Parameter sizes: `stat` each file for its size. Without sizes, the file type comes from
    ///   `readdir`'s `d_type` and only entries whose type it does not tell (symbolic links, file
    ///   systems without `d_type`) are `stat`ed: 10 000 files list in ~3 ms instead of ~20 ms.
    /// A missing directory lists as empty.
    static func regularFiles(in directory: String, sizes: Bool) -> [Entry] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        let descriptor = dirfd(stream)
        var entries: [Entry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            let type = entry.pointee.d_type
            if !sizes, type == UInt8(DT_REG) {
                entries.append(Entry(name: name, size: nil))
                continue
            }
            if !sizes, type != UInt8(DT_UNKNOWN), type != UInt8(DT_LNK) { continue }
            var status = stat()
            guard fstatat(descriptor, name, &status, 0) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            entries.append(Entry(name: name, size: sizes ? Int64(status.st_size) : nil))
        }
        return entries
    }

    /// The names of the hidden regular files (`.name`) directly in `directory`, with their sizes.
    static func hiddenFiles(in directory: String) -> [Entry] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        let descriptor = dirfd(stream)
        var entries: [Entry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("."), name != ".", name != ".." else { continue }
            var status = stat()
            guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            entries.append(Entry(name: name, size: Int64(status.st_size)))
        }
        return entries
    }

    /// Whether a process with this id runs (`kill(pid, 0)`: EPERM means it does, as another user's).
    static func processIsAlive(_ processID: Int32) -> Bool {
        guard processID > 0 else { return false }
        return kill(processID, 0) == 0 || errno == EPERM
    }

    /// The size of the file at `path`, or `nil` when there is none.
    static func size(of path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }

    /// The device and inode of what `path` names (following symbolic links), or `nil` when
    /// there is nothing there.
    static func identity(of path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// The modification time of the file at `path`.
    /// The modification time of `path` in nanoseconds (what changes when a folder gains, loses
    /// or renames an entry); `nil` when nothing is there.
    static func modificationStamp(of path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }

    static func modificationDate(of path: String) -> Date? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether this process may create and change files in `path` (a directory), and it is on a
    /// writable file system.
    static func isWritableDirectory(_ path: String) -> Bool {
        guard access(path, W_OK) == 0 else { return false }
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return true }
        return info.f_flag & UInt(ST_RDONLY) == 0
    }

    /// The bytes an unprivileged process may still write on the file system of `path`, or
    /// `nil` when that cannot be read.
    static func availableBytes(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) &* Int64(info.f_frsize)
    }

    /// Creates `path` and its parents (mode 0700 for new folders); `0` or `errno`.
    static func createDirectory(_ path: String) -> Int32 {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return 0
        } catch {
            return errno == 0 ? EIO : errno
        }
    }

    /// Renames `source` to `destination` without replacing an existing file; `0` or `errno`.
    static func moveWithoutReplacing(_ source: String, to destination: String) -> Int32 {
        if exists(destination) { return EEXIST }
        return rename(source, destination) == 0 ? 0 : errno
    }

    /// Renames, replacing `destination`; `0` or `errno`.
    static func move(_ source: String, to destination: String) -> Int32 {
        rename(source, destination) == 0 ? 0 : errno
    }

    /// Flushes a file's data and metadata to the disk (`fsync`); `0` or `errno`.
    static func synchronize(_ path: String) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        return fsync(descriptor) == 0 ? 0 : errno
    }

    /// Flushes a directory's entries (a rename in it) to the disk; `0` or `errno`.
    static func synchronizeDirectory(_ path: String) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        return fsync(descriptor) == 0 ? 0 : errno
    }

    /// `0` when `path` is a directory (following symbolic links), `ENOTDIR` when something
    /// else is there, else `stat`'s `errno` (`ENOENT`: nothing there).
    static func directoryStatus(_ path: String) -> Int32 {
        var status = stat()
        guard stat(path, &status) == 0 else { return errno }
        return (status.st_mode & S_IFMT) == S_IFDIR ? 0 : ENOTDIR
    }

    /// Whether `path` is a directory (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// What is at a path, without following a final symbolic link (`lstat`).
    enum Kind: Equatable {
        case none, regularFile, directory, symbolicLink, characterDevice, blockDevice, fifo, socket, other
    }

    /// What is at `path`; `follow` follows symbolic links (`stat`), else `lstat`.
    static func kind(of path: String, follow: Bool = false) -> Kind {
        var status = stat()
        guard (follow ? stat(path, &status) : lstat(path, &status)) == 0 else { return .none }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        default: return .other
        }
    }

    /// Whether the file at `path` is shared with another name: a symbolic link (to what), or a
    /// file with other hard links (how many names it has). `nil` for a file of its own, or
    /// nothing there.
    static func sharing(of path: String) -> Sharing? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        if (status.st_mode & S_IFMT) == S_IFLNK {
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &target, target.count - 1)
            return .symbolicLink(to: count > 0 ? String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?")
        }
        if (status.st_mode & S_IFMT) == S_IFREG, status.st_nlink > 1 { return .hardLinks(names: Int(status.st_nlink)) }
        return nil
    }

    enum Sharing: Equatable {
        case symbolicLink(to: String)
        case hardLinks(names: Int)
    }

    /// The absolute path with every symbolic link, `.` and `..` resolved (`realpath`), or `errno`.
    static func canonicalPath(_ path: String) -> Result<String, FileSystemError> {
        guard let resolved = realpath(path, nil) else { return .failure(FileSystemError(code: errno)) }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }

    /// Removes a file; a missing one is not an error. `0` or `errno`.
    static func remove(_ path: String) -> Int32 {
        unlink(path) == 0 || errno == ENOENT ? 0 : errno
    }

    /// The text for `errno` value `code`.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    // MARK: Locks

    /// Opens (creating) `path` and takes an exclusive `flock` on it.
    ///
    /// - Parameter wait: block until the lock is free; otherwise fail at once with `EWOULDBLOCK`.
    /// - Returns: the open descriptor holding the lock, or `errno`.
    static func lockFile(_ path: String, wait: Bool) -> Result<Int32, FileSystemError> {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .failure(FileSystemError(code: errno)) }
        var result: Int32
        repeat {
            result = flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB))
        } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            close(descriptor)
            return .failure(FileSystemError(code: code))
        }
        return .success(descriptor)
    }

    /// Writes `text` over the start of an open file (the lock file's owner PID, for people).
    static func overwrite(_ descriptor: Int32, with text: String) {
        _ = ftruncate(descriptor, 0)
        _ = text.utf8CString.withUnsafeBufferPointer { bytes in
            pwrite(descriptor, bytes.baseAddress, bytes.count - 1, 0)
        }
    }

    /// Releases a lock taken by `lockFile` by closing its descriptor.
    static func unlock(_ descriptor: Int32) {
        close(descriptor)
    }

    // MARK: Deleted files still open

    /// A new read-only descriptor of the file this process has open under the deleted name
    /// `path` (its `/proc/self/fd` link reads `PATH (deleted)`), or `nil` when there is none.
    static func openDeletedFile(named path: String) -> Int32? {
        let wanted = path + " (deleted)"
        guard let stream = opendir("/proc/self/fd") else { return nil }
        defer { closedir(stream) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard Int32(name) != nil else { continue }
            let link = "/proc/self/fd/" + name
            let length = readlink(link, &buffer, buffer.count - 1)
            guard length > 0 else { continue }
            let target = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard target == wanted else { continue }
            let descriptor = open(link, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 { return descriptor }
        }
        return nil
    }

    /// Copies the file at `source` into a new file at `path` (never replacing one), flushed to
    /// disk; `0` or `errno` (a copy that failed half-way is removed).
    static func copy(file source: String, toNewFile path: String) -> Int32 {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return errno }
        defer { Glibc.close(input) }
        return copy(descriptor: input, toNewFile: path)
    }

    /// Writes `bytes` into a new file at `path` (never replacing one), flushed to disk; `0` or
    /// `errno` (a file written half-way is removed).
    static func write(_ bytes: [UInt8], toNewFile path: String) -> Int32 {
        let output = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { return errno }
        var code: Int32 = 0
        var written = 0
        while written < bytes.count, code == 0 {
            let result = bytes.withUnsafeBytes { Glibc.write(output, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if result < 0 {
                if errno != EINTR { code = errno }
            } else {
                written += result
            }
        }
        if code == 0, fsync(output) != 0 { code = errno }
        Glibc.close(output)
        if code != 0 { unlink(path) }
        return code
    }

    /// Copies everything in the open file `descriptor` into a new file at `path` (never
    /// replacing one), flushed to disk; `0` or `errno` (a copy that failed half-way is removed).
    static func copy(descriptor: Int32, toNewFile path: String) -> Int32 {
        let output = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { return errno }
        let code = copy(descriptor, into: output)
        Glibc.close(output)
        if code != 0 { unlink(path) }
        return code
    }

    private static func copy(_ descriptor: Int32, into output: Int32) -> Int32 {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if count == 0 { break }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { bytes in
                    pwrite(output, bytes.baseAddress.map { $0 + written }, count - written, offset + off_t(written))
                }
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            offset += off_t(count)
        }
        return fsync(output) == 0 ? 0 : errno
    }

    /// Closes a descriptor.
    static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    /// This process's id.
    static var processID: Int32 {
        getpid()
    }
}

/// An `errno` value from `FileSystem`.
struct FileSystemError: Error {
    var code: Int32

    var wouldBlock: Bool {
        code == EWOULDBLOCK || code == EAGAIN
    }
}
