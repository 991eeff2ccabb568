import Dispatch
import Glibc
import Interface
import Synchronization
import Vocabulary

/// The control socket's requests in the app: the socket's thread (`vm-control`) hands each to
/// the UI queue and waits there for the answer, so the UI queue never waits for a client.
extension AppLoop {
    /// What `request` comes to, from the state after the UI queue reduced it. Called on the
    /// control socket's thread, never on the UI queue (it waits for it, at most 2 s).
    public func answer(_ request: ControlRequest) -> ControlReply {
        let reply = Mutex<ControlReply?>(nil)
        let done = DispatchSemaphore(value: 0)
        queue.async { [self] in
            reply.withLock { $0 = answerOnQueue(request) }
            done.signal()
        }
        guard done.wait(timeout: .now() + 2) == .success else {
            return .error("the app did not answer within 2 s")
        }
        return reply.withLock { $0 } ?? .error("the app gave no answer")
    }

    /// UI queue.
    private func answerOnQueue(_ request: ControlRequest) -> ControlReply {
        if isFinishing { return .error("the app is quitting") }
        if case .status = request { return .status(controlStatus) }
        state.controlAnswer = nil
        dispatch(.control(request))
        render()
        defer { state.controlAnswer = nil }
        return state.controlAnswer ?? .error("the app did nothing")
    }

    /// What the app is doing, for `status`.
    var controlStatus: ControlStatus {
        let recording = state.recording
        return ControlStatus(
            process: .app,
            state: recording == .idle ? .idle : recording == .paused ? .paused : .recording,
            elapsed: recording == .idle ? 0 : state.recordedSeconds, pid: getpid(),
            memo: recording == .idle ? nil : state.recordingMemoID,
            title: recording == .idle ? nil : state.recordingTitle)
    }
}
