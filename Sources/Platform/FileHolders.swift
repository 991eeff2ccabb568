import Glibc

/// Which processes have a file open, read from `/proc/PID/fd` (this user's processes, or all of
/// them for root): whether a recording left by `record --output` is still being written.
public enum FileHolders {
    /// The other processes that have `path` open; empty when none (or nothing is there).
    public static func others(holding path: String) -> [Int32] {
        var target = stat()
        guard stat(path, &target) == 0, let processes = opendir("/proc") else { return [] }
        defer { closedir(processes) }
        let own = getpid()
        var holders: [Int32] = []
        while let entry = readdir(processes) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = Int32(name), pid != own else { continue }
            let folder = "/proc/\(name)/fd"
            guard let descriptors = opendir(folder) else { continue }
            defer { closedir(descriptors) }
            while let descriptor = readdir(descriptors) {
                let number = withUnsafeBytes(of: descriptor.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard number.first?.isNumber == true else { continue }
                var status = stat()
                if stat(folder + "/" + number, &status) == 0, status.st_dev == target.st_dev, status.st_ino == target.st_ino {
                    holders.append(pid)
                    break
                }
            }
        }
        return holders
    }
}
