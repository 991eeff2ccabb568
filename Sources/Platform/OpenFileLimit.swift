import Glibc

/// The number of files the process may have open (`RLIMIT_NOFILE`), checked before anything
/// else runs. A recording holds the input, the file, its intermediate, the index with its
/// journal, lock files and the threads' event descriptors; under a limit too low for that,
/// opening the finished file failed with EMFILE (the memo was then marked damaged) and at 8
/// the dispatch library trapped on its eventfd. The soft limit is raised towards the hard one
/// first, as most long-running programs do; a hard limit below `minimum` is a clear error.
public enum OpenFileLimit {
    /// Enough for the app with a recording, voice activation, playback and transcription at once.
    static let minimum: rlim_t = 64
    /// What the soft limit is raised to, when the hard limit allows.
    static let wanted: rlim_t = 1024

    /// Raises the soft limit where it is below `wanted`; the error to print when even the hard
    /// limit is below `minimum`, else `nil`.
    public static func ensure() -> String? {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return nil }
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = min(wanted, limit.rlim_max)
            if raised.rlim_cur > limit.rlim_cur, setrlimit(RLIMIT_NOFILE_VALUE, &raised) == 0 { limit = raised }
        }
        guard limit.rlim_cur < minimum else { return nil }
        return "too many open files: voicememo needs to open at least \(minimum) files at once and the limit is "
            + "\(limit.rlim_cur); raise it (ulimit -n \(minimum)) and try again"
    }

    private static var RLIMIT_NOFILE_VALUE: __rlimit_resource_t { __rlimit_resource_t(UInt32(RLIMIT_NOFILE.rawValue)) }
}
