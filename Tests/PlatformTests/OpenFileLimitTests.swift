import Glibc
import Platform
import Testing

/// `OpenFileLimit.ensure()` raises the soft limit on open files towards 1024 (never above the
/// hard limit) and complains only when even the hard limit is below 64.
@Suite struct OpenFileLimitTests {
    private func limits() -> rlimit {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(UInt32(RLIMIT_NOFILE.rawValue)), &limit)
        return limit
    }

    @Test func theSoftLimitIsAtLeastWhatTheHardLimitAllowsUpTo1024() throws {
        let before = limits()
        try #require(before.rlim_max >= 64, "this machine's hard limit is below what voicememo needs")
        #expect(OpenFileLimit.ensure() == nil)
        let after = limits()
        #expect(after.rlim_cur >= min(1024, after.rlim_max))
        #expect(after.rlim_cur >= before.rlim_cur, "never lowered")
        #expect(after.rlim_max == before.rlim_max, "the hard limit is left alone")
        #expect(OpenFileLimit.ensure() == nil, "a second call changes nothing")
        #expect(limits().rlim_cur == after.rlim_cur)
    }
}
