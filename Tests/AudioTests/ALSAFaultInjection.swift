import CALSA
import Glibc
import Synchronization

@testable import Audio

/// A `PCMOperations` double: the real alsa-lib calls, except where a rule forces a
/// result ("-EPIPE on readi call 3"), swift-system's `forceErrno` at the PCM layer.
final class FaultInjectingPCMOperations: PCMOperations {
    /// The calls a rule can target.
    enum Call: Hashable, Sendable {
        case open, readInterleaved, writeInterleaved, prepare, resume, wait, status, delay
    }

    private struct State {
        var rules: [Call: [Int: Int]] = [:]
        var counts: [Call: Int] = [:]
        var forcedStatus: PCMStatusSnapshot?
        var forcedState: snd_pcm_state_t?
    }

    private let real = SystemPCMOperations()
    private let state = Mutex(State())

    /// - Parameter rules: per call, the 1-based call numbers and the result to
    ///   return instead of calling alsa-lib (e.g. `[.readInterleaved: [3: -EPIPE]]`).
    init(_ rules: [Call: [Int: Int]] = [:]) {
        state.withLock { $0.rules = rules }
    }

    /// Makes `snd_pcm_status` report an XRUN that began `milliseconds` ago.
    func reportOverrun(lastingMilliseconds milliseconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        var trigger = now
        let nanoseconds = Int(trigger.tv_nsec) - milliseconds * 1_000_000
        trigger.tv_sec += nanoseconds.floorDivided(by: 1_000_000_000)
        trigger.tv_nsec = nanoseconds.floorModulo(1_000_000_000)
        state.withLock {
            $0.forcedStatus = PCMStatusSnapshot(
                code: 0, state: SND_PCM_STATE_XRUN, triggerTime: trigger, statusTime: now)
        }
    }

    /// Makes `snd_pcm_state` report `state` (nil: the device's own again).
    func reportState(_ state: snd_pcm_state_t?) {
        self.state.withLock { $0.forcedState = state }
    }

    func state(_ pcm: OpaquePointer) -> snd_pcm_state_t {
        if let forced = state.withLock({ $0.forcedState }) { return forced }
        return real.state(pcm)
    }

    /// How many times `call` was made (forced or not).
    func count(_ call: Call) -> Int {
        state.withLock { $0.counts[call, default: 0] }
    }

    private func forced(_ call: Call) -> Int? {
        state.withLock { state in
            state.counts[call, default: 0] += 1
            return state.rules[call]?[state.counts[call, default: 0]]
        }
    }

    func open(_ pcm: inout OpaquePointer?, name: String, stream: snd_pcm_stream_t, config: OpaquePointer?) -> Int32 {
        if let code = forced(.open) { return Int32(code) }
        return real.open(&pcm, name: name, stream: stream, config: config)
    }

    func readInterleaved(_ pcm: OpaquePointer, _ buffer: UnsafeMutableRawPointer, _ frames: Int) -> Int {
        if let code = forced(.readInterleaved) { return code }
        return real.readInterleaved(pcm, buffer, frames)
    }

    func writeInterleaved(_ pcm: OpaquePointer, _ buffer: UnsafeRawPointer, _ frames: Int) -> Int {
        if let code = forced(.writeInterleaved) { return code }
        return real.writeInterleaved(pcm, buffer, frames)
    }

    func prepare(_ pcm: OpaquePointer) -> Int32 {
        if let code = forced(.prepare) { return Int32(code) }
        return real.prepare(pcm)
    }

    func resume(_ pcm: OpaquePointer) -> Int32 {
        if let code = forced(.resume) { return Int32(code) }
        return real.resume(pcm)
    }

    func wait(_ pcm: OpaquePointer, milliseconds: Int32) -> Int32 {
        if let code = forced(.wait) { return Int32(code) }
        return real.wait(pcm, milliseconds: milliseconds)
    }

    func delay(_ pcm: OpaquePointer, _ frames: inout Int) -> Int32 {
        if let code = forced(.delay) { return Int32(code) }
        return real.delay(pcm, &frames)
    }

    func status(_ pcm: OpaquePointer, _ status: OpaquePointer) -> PCMStatusSnapshot {
        _ = forced(.status)
        if let snapshot = state.withLock({ $0.forcedStatus }) { return snapshot }
        return real.status(pcm, status)
    }
}

extension Int {
    fileprivate func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }

    fileprivate func floorModulo(_ divisor: Int) -> Int {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
