import CPulseLoader
import Glibc

/// One connection to the sound server (a `pa_mainloop` and its `pa_context`), driven by the
/// calling thread and never for longer than its deadline: nothing waits on a server that does
/// not answer, and nothing is started (`PA_CONTEXT_NOAUTOSPAWN`).
///
/// Used from one thread, then released; it disconnects when released.
final class PulseConnection {
    private let mainloop: OpaquePointer
    /// The `pa_context`, for the requests and streams of `Audio/Pulse/`.
    let context: OpaquePointer
    private let deadline: ContinuousClock.Instant
    private let timeout: Duration
    /// The server as messages name it: its address once connected.
    private(set) var server: String

    /// Connects to `server` (libpulse's own choice when nil: `PULSE_SERVER`, then the user's
    /// and the system's sockets).
    ///
    /// - Parameters:
    ///   - server: An address (`unix:/path/native`, `tcp:host`), or nil.
    ///   - timeout: How long connecting and every later request may take in all.
    /// - Throws: `PulseError` `.libraryMissing`, `.noServer`, `.timedOut` or `.failed`.
    init(server: String?, timeout: Duration) throws(PulseError) {
        self.timeout = timeout
        self.deadline = .now + timeout
        self.server = server ?? Self.environmentServer ?? "the default address"
        try PulseLibrary.load(for: self.server)
        guard let mainloop = pa_mainloop_new() else {
            throw PulseError(.failed, server: self.server, detail: "pa_mainloop_new failed")
        }
        guard let context = pa_context_new(pa_mainloop_get_api(mainloop), Self.clientName) else {
            pa_mainloop_free(mainloop)
            throw PulseError(.failed, server: self.server, detail: "pa_context_new failed")
        }
        self.mainloop = mainloop
        self.context = context
        if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            throw PulseError.libpulse(.noServer, code: pa_context_errno(context), server: self.server)
        }
        try iterate { [context] in
            switch pa_context_get_state(context) {
            case PA_CONTEXT_READY, PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: true
            default: false
            }
        }
        guard pa_context_get_state(context) == PA_CONTEXT_READY else {
            throw PulseError.libpulse(.noServer, code: pa_context_errno(context), server: self.server)
        }
        if let address = pa_context_get_server(context) {
            self.server = String(cString: address)
        }
    }

    deinit {
        pa_context_disconnect(context)
        pa_context_unref(context)
        pa_mainloop_free(mainloop)
    }

    /// The name the server shows for this program's connections and streams.
    static let clientName = "voicememo"

    /// `PULSE_SERVER`, which libpulse reads when given no address.
    static var environmentServer: String? {
        guard let value = getenv("PULSE_SERVER") else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Starts a request with `body` (given the context, returning its `pa_operation`) and runs
    /// the loop until the request is done, at most until the deadline (or `timeout` from now).
    ///
    /// - Throws: `PulseError` `.timedOut`, or `.failed` when the request could not start or
    ///   the connection broke.
    func perform(within timeout: Duration? = nil, _ body: (OpaquePointer) -> OpaquePointer?) throws(PulseError) {
        guard let operation = body(context) else {
            throw PulseError.libpulse(.failed, code: pa_context_errno(context), server: server)
        }
        defer { pa_operation_unref(operation) }
        try iterate(within: timeout) { pa_operation_get_state(operation) != PA_OPERATION_RUNNING }
        if pa_operation_get_state(operation) != PA_OPERATION_DONE {
            throw PulseError.libpulse(.failed, code: pa_context_errno(context), server: server)
        }
    }

    /// Runs the main loop until `isDone`, at most until the deadline (or `timeout` from now),
    /// polling at most 100 ms a time.
    func iterate(within timeout: Duration? = nil, until isDone: () -> Bool) throws(PulseError) {
        let deadline = timeout.map { ContinuousClock.now + $0 } ?? deadline
        while !isDone() {
            let remaining = deadline - .now
            if remaining <= .zero {
                throw PulseError(.timedOut, server: server, detail: Self.secondsText(timeout ?? self.timeout))
            }
            guard waitForEvents(upTo: min(remaining, .milliseconds(100))) else {
                throw PulseError.libpulse(.failed, code: pa_context_errno(context), server: server)
            }
        }
    }

    /// Waits at most `duration` for the server, then handles what arrived (one turn of the
    /// loop); false when the loop failed. Allocates nothing: the capture thread calls it.
    func waitForEvents(upTo duration: Duration) -> Bool {
        let microseconds = Int32(clamping: Int64(duration / .microseconds(1)))
        return pa_mainloop_prepare(mainloop, max(1, microseconds)) >= 0 && pa_mainloop_poll(mainloop) >= 0
            && pa_mainloop_dispatch(mainloop) >= 0
    }

    /// Whether the connection still stands (not failed, not ended).
    var isConnected: Bool { pa_context_get_state(context) == PA_CONTEXT_READY }

    private static func secondsText(_ duration: Duration) -> String {
        let milliseconds = Int64(duration / .milliseconds(1))
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
