import Audio
import Glibc
import MemoLibrary
import Metering
import Platform
import Synchronization
import Vocabulary

/// `record`'s side of the control socket: `toggle` and `stop` end the recording as SIGINT does
/// (saving it) but leave the command to finish as after a recording's own end (`--play`,
/// `transcribe = auto`), `pause` pauses or resumes the recorder, `mark` keeps a marker at the
/// recorded position, added to the memo once it is saved.
final class RecordControl: Sendable {
    /// Set by `toggle` or `stop`; `record`'s loop polls it beside the stop signals.
    static let stopRequested = Atomic<Bool>(false)

    private struct State {
        var paused = false
        var markers: [Marker] = []
    }

    private let state = Mutex(State())
    private let server = Mutex<ControlServer?>(nil)

    /// Serves the library's socket for `recorder`, which records memo `memo` titled `title`.
    init(recorder: Recorder, memo: Int64, title: String, context: CommandContext) {
        // The closure holds `self` until `close()` joins the socket's thread.
        let served = ControlConnection.serve(context: context) { [self] request in
            switch request {
            case .status:
                let paused = self.state.withLock { $0.paused }
                return .status(ControlStatus(
                    process: .record, state: paused ? .paused : .recording, elapsed: recorder.currentTime,
                    pid: getpid(), memo: memo, title: title))
            case .toggle, .stop:
                // A second press while the first one's save runs: said, and nothing more is asked.
                if Self.stopRequested.exchange(true, ordering: .relaxed) { return .ok("memo \(memo) is being saved") }
                return .ok("stopping and saving memo \(memo)")
            case .pause:
                let pausing = self.state.withLock { current -> Bool in
                    current.paused.toggle()
                    return current.paused
                }
                if pausing {
                    recorder.pause()
                    return .ok("paused memo \(memo) at \(DisplayFormat.seconds(recorder.currentTime))")
                }
                do throws(RecorderError) {
                    try recorder.record()
                } catch {
                    self.state.withLock { $0.paused = true }
                    return .error("cannot resume: \(error.message)")
                }
                return .ok("resumed memo \(memo)")
            case .mark(let label):
                let time = recorder.currentTime
                self.state.withLock { $0.markers.append(Marker(time: time, label: label)) }
                let named = label.isEmpty ? "" : " “\(label)”"
                return .ok("marker\(named) at \(DisplayFormat.seconds(time)) in memo \(memo)")
            }
        }
        switch served {
        case .success(let running): server.withLock { $0 = running }
        case .failure(let refusal): context.console.printErrorMessage(refusal.message + "; recording on without it")
        }
    }

    /// Stops serving (the recording is over).
    func close() {
        server.withLock { current in
            current?.close()
            current = nil
        }
    }

    /// The markers asked for, in order.
    var markers: [Marker] { state.withLock { $0.markers } }
}
