import Platform
import Glibc
import Testing


/// Slow work is lowered on a thread of its own; the caller's own priority is never touched
/// (an unprivileged thread could not get it back).
@Suite struct BackgroundPriorityTests {
    @Test func runDoesTheWorkOnAnotherThreadAtItsNiceAndLeavesTheCallerAlone() {
        let before = BackgroundPriority.callingThreadNice()
        let caller = pthread_self()
        let seen = BackgroundPriority.heavy.run { (thread: pthread_self(), nice: BackgroundPriority.callingThreadNice()) }
        #expect(seen.thread != caller)
        // Never raised: a process started under `nice -n 19` keeps 19 for its slow work too.
        #expect(seen.nice == max(before, BackgroundPriority.heavy.rawValue))
        #expect(BackgroundPriority.callingThreadNice() == before)
    }

    @Test func theIdlePriorityIsLowerThanTheHeavyOne() {
        let nice = BackgroundPriority.idle.run { BackgroundPriority.callingThreadNice() }
        #expect(nice == 19)
        #expect(BackgroundPriority.heavy.rawValue < BackgroundPriority.idle.rawValue)
    }

    /// A typed error comes back as it was thrown, through `Result`.
    @Test func aThrownErrorComesBackTyped() {
        struct Refused: Error, Equatable { let code: Int }
        let result = BackgroundPriority.heavy.run {
            Result { () throws(Refused) -> Int in throw Refused(code: 7) }
        }
        #expect(throws: Refused(code: 7)) { try result.get() }
    }
}
