import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Platform

/// The one wait-with-progress loop and the one way to start a thread.
@Suite struct WaitingTests {
    @Test func aSignalledWaitEndsAndSaysSo() {
        let done = DispatchSemaphore(value: 0)
        let ticks = Mutex(0)
        DetachedThread.start { done.signal() }
        #expect(Waiting.wait(for: done, every: 5) {
            ticks.withLock { $0 += 1 }
            return true
        })
        #expect(ticks.withLock { $0 } >= 1, "ticked at once, then every 5 ms")
    }

    @Test func aTickThatGivesUpEndsTheWaitUnsignalled() {
        let done = DispatchSemaphore(value: 0)
        var ticks = 0
        let signalled = Waiting.wait(for: done, every: 1) {
            ticks += 1
            return ticks < 3
        }
        #expect(!signalled)
        #expect(ticks == 3)
    }

    @Test func aWaitAlreadySignalledNeedNotTick() {
        let done = DispatchSemaphore(value: 0)
        done.signal()
        var ticks = 0
        #expect(Waiting.wait(for: done, tickingAtOnce: false) {
            ticks += 1
            return true
        })
        #expect(ticks == 0, "tickingAtOnce false: the first interval's wait comes first")
    }

    /// `run` does the work on a thread of its own, named, and ticks on the caller's meanwhile.
    @Test func runDoesTheWorkOnANamedThreadAndReturnsWhenItIsDone() throws {
        let seen = Mutex<(name: String, finished: Bool)>(("", false))
        // The work goes on until the caller has ticked twice.
        let release = DispatchSemaphore(value: 0)
        var ticks = 0
        Waiting.run("vm-test-worker", every: 2, {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            release.wait()
            seen.withLock { $0 = (name.trimmingCharacters(in: .newlines), true) }
        }) {
            ticks += 1
            if ticks == 2 { release.signal() }
        }
        let result = seen.withLock { $0 }
        #expect(result.finished, "returns only once the work is done")
        #expect(result.name == "vm-test-worker")
        #expect(ticks >= 2)
    }

    @Test func aLongNameIsCutToWhatTheKernelKeeps() {
        let name = Mutex("")
        JoinableThread(name: "a-thread-name-longer-than-fifteen") {
            let read = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            name.withLock { $0 = read.trimmingCharacters(in: .newlines) }
        }.join()
        #expect(name.withLock { $0 } == "a-thread-name-l")
    }
}
