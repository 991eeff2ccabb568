import Platform
import CALSA
import Dispatch
import Glibc
import Synchronization

/// An open ALSA PCM device (`snd_pcm_t`), for capture or playback.
///
/// Open it by name (`default`, `pulse`, `hw:0`, or a device defined in an extra
/// configuration file), then call `configure(_:)` once to set the hardware
/// parameters, then read or write interleaved frames. Every alsa-lib call goes
/// through `PCMOperations`, so tests can force failures.
///
/// Errors are `ALSAError`s carrying alsa-lib's own message, which the shim's error
/// handler captures instead of printing it (installed on first use).
///
/// Thread safety: `@unchecked Sendable` because a PCM is handed from the thread
/// that opens it to the capture or playback thread, never shared: alsa-lib allows
/// one thread at a time per `snd_pcm_t`, and the callers (`ALSACaptureSource`,
/// `ALSAPlaybackSink`) promise exactly that. `close` must not race a blocked read.
///
/// It opens in blocking mode; the capture source and the playback sink switch it to
/// non-blocking I/O (`useNonblockingIO()`) and wait with a timeout (`snd_pcm_wait`, 100 ms),
/// so that a device or sound server that stops delivering (a SIGSTOPped PulseAudio, an
/// unlinked PipeWire stream) can never hold their thread past a stop request.
public final class ALSAPCM: @unchecked Sendable {
    /// The device name it was opened with.
    public let device: String
    /// Capture or playback.
    public let stream: ALSAStream
    /// The parameters negotiated by `configure`, nil before.
    public private(set) var setup: ALSAStreamSetup?

    let operations: any PCMOperations
    private var handle: OpaquePointer?
    private var configuration: OpaquePointer?
    private var statusObject: OpaquePointer?

    /// Opens a device by name.
    ///
    /// - Parameters:
    ///   - device: An ALSA PCM name, as for `arecord -D`.
    ///   - stream: Capture or playback.
    ///   - configFile: An extra configuration file loaded on top of the global one
    ///     for this PCM only (device definitions), instead of `ALSA_CONFIG_PATH`.
    /// - Throws: `ALSAError`, e.g. `.noEntry` for an unknown name, `.busy` when
    ///   another program holds the device.
    public convenience init(device: String, stream: ALSAStream, configFile: String? = nil) throws(ALSAError) {
        try self.init(device: device, stream: stream, configFile: configFile, operations: SystemPCMOperations())
    }

    init(device: String, stream: ALSAStream, configFile: String?, operations: any PCMOperations) throws(ALSAError) {
        ALSAErrorCapture.install()
        self.device = device
        self.stream = stream
        self.operations = operations
        ALSAErrorCapture.clear()
        if let configFile {
            var loaded: OpaquePointer?
            let code = voicememo_alsa_load_config(configFile, &loaded)
            guard code >= 0, let loaded else {
                throw ALSAError(
                    code: code, function: "voicememo_alsa_load_config", device: device, stream: stream,
                    alsaMessage: ALSAErrorCapture.lastMessage(), detail: "reading \"\(configFile)\"")
            }
            configuration = loaded
        }
        let function = configuration == nil ? "snd_pcm_open" : "snd_pcm_open_lconf"
        let outcome = Self.openInterruptibly(operations: operations, device: device, stream: stream, configuration: configuration)
        guard let outcome else {
            // The opening thread owns the configuration now and frees it when alsa-lib returns.
            configuration = nil
            throw ALSAError(
                code: -EINTR, function: function, device: device, stream: stream,
                detail: "a stop was asked for while the device was opening")
        }
        guard outcome.code >= 0, let opened = outcome.opened.handle else {
            let error = ALSAError(
                code: outcome.code, function: function, device: device, stream: stream, alsaMessage: outcome.message)
            releaseConfiguration()
            throw error
        }
        handle = opened
        statusObject = operations.allocateStatus()
    }

    /// Asked every 100 ms while `snd_pcm_open` waits; `true` stops waiting for it (the command
    /// line sets it to "a stop signal came": opening the pulse plugin against a server that
    /// does not answer waits 30 s for its connect timeout). `nil`: wait for the open.
    public static let openInterruption = Mutex<(@Sendable () -> Bool)?>(nil)

    /// `snd_pcm_open` on a thread of its own, waited for in 100 ms slices while
    /// `openInterruption` says to go on; `nil` when it said to stop first. The thread then
    /// closes what it opens and frees `configuration` itself.
    private static func openInterruptibly(
        operations: any PCMOperations, device: String, stream: ALSAStream, configuration: OpaquePointer?
    ) -> PendingOpen.Outcome? {
        let pending = PendingOpen()
        let done = DispatchSemaphore(value: 0)
        let request = PCMObjects(configuration: configuration)
        DetachedThread.start {
            ALSAErrorCapture.clear()
            var opened: OpaquePointer?
            let code = operations.open(&opened, name: device, stream: stream.cValue, config: request.configuration)
            let outcome = PendingOpen.Outcome(
                code: code, opened: PCMObjects(handle: opened), message: ALSAErrorCapture.lastMessage())
            if !pending.deliver(outcome) {
                PCMObjects(handle: opened, configuration: request.configuration).release(with: operations)
            }
            done.signal()
        }
        let opened = Waiting.wait(for: done, tickingAtOnce: false) {
            let interrupted = openInterruption.withLock { $0?() ?? false } || (StopSignals.isInstalled && StopSignals.pending != nil)
            return !(interrupted && pending.abandon())
        }
        return opened ? pending.outcome : nil
    }

    deinit {
        close()
    }

    /// Whether the PCM is open.
    public var isOpen: Bool { handle != nil }

    /// How long `close()` waits for alsa-lib to close the device before going on without it.
    ///
    /// A healthy device closes in a few milliseconds. The pulse plugin's close waits for the
    /// server to answer (`pa_stream_cork`, then up to 30 s for its operation timeout,
    /// measured against a SIGSTOPped PulseAudio): a stop must not wait for that.
    public static let closeWaitMilliseconds = 150

    /// Closes the device. Safe to call more than once; also done on deinit.
    ///
    /// alsa-lib's close runs on a thread of its own, which this waits for at most
    /// `closeWaitMilliseconds`: a device whose sound server has stopped answering is left
    /// to finish closing in the background (its handle, already handed over, is used by
    /// nothing else), so the caller can finalise its file and exit.
    ///
    /// - Returns: Whether the device had closed when it returned (`false`: still closing).
    @discardableResult
    public func close() -> Bool {
        let closing = PCMObjects(handle: handle, status: statusObject, configuration: configuration)
        handle = nil
        statusObject = nil
        configuration = nil
        guard closing.holdsAnything else { return true }
        let closed = DispatchSemaphore(value: 0)
        let operations = operations
        DetachedThread.start {
            closing.release(with: operations)
            closed.signal()
        }
        return closed.wait(timeout: .now() + .milliseconds(Self.closeWaitMilliseconds)) == .success
    }

    /// Switches reads and writes to non-blocking (`snd_pcm_nonblock`): `snd_pcm_readi` and
    /// `snd_pcm_writei` return `-EAGAIN` instead of waiting, and the caller waits with a
    /// timeout.
    public func useNonblockingIO() throws(ALSAError) {
        try check(function: "snd_pcm_nonblock") { operations.setNonblocking($0, true) }
    }

    /// Reads up to `frames` interleaved frames, blocking until some are available.
    ///
    /// - Returns: The number of frames read (may be fewer than asked).
    /// - Throws: `ALSAError`: `.brokenPipe` on an overrun, `.suspended`, `.noDevice`…
    public func readInterleaved(into buffer: UnsafeMutableRawPointer, frames: Int) throws(ALSAError) -> Int {
        let result = readFrames(into: buffer, frames: frames)
        if result < 0 { throw makeError(Int32(result), function: "snd_pcm_readi") }
        return result
    }

    /// Writes up to `frames` interleaved frames, blocking while the buffer is full.
    ///
    /// - Returns: The number of frames written (may be fewer than given).
    /// - Throws: `ALSAError`: `.brokenPipe` on an underrun, `.suspended`, `.noDevice`…
    public func writeInterleaved(from buffer: UnsafeRawPointer, frames: Int) throws(ALSAError) -> Int {
        guard let handle else { throw closedError(function: "snd_pcm_writei") }
        ALSAErrorCapture.clear()
        let result = operations.writeInterleaved(handle, buffer, frames)
        if result < 0 { throw makeError(Int32(result), function: "snd_pcm_writei") }
        return result
    }

    /// Prepares the device for I/O (after an xrun, or to restart).
    public func prepare() throws(ALSAError) {
        try check(function: "snd_pcm_prepare") { operations.prepare($0) }
    }

    /// Lets alsa-lib recover from an xrun, suspend or interrupted call (`snd_pcm_recover`).
    ///
    /// - Throws: The error itself when it cannot be recovered from.
    public func recover(from error: ALSAError) throws(ALSAError) {
        try check(function: "snd_pcm_recover") { operations.recover($0, error.rawValue, silent: true) }
    }

    /// Resumes a suspended device.
    ///
    /// - Throws: `.wouldBlock` while the device is still waking up; other codes
    ///   (e.g. `.notImplemented`) mean it must be prepared instead.
    public func resume() throws(ALSAError) {
        try check(function: "snd_pcm_resume") { operations.resume($0) }
    }

    /// Stops after playing everything queued (playback) or stops capture.
    public func drain() throws(ALSAError) {
        try check(function: "snd_pcm_drain") { operations.drain($0) }
    }

    /// Stops at once, discarding queued frames.
    public func drop() throws(ALSAError) {
        try check(function: "snd_pcm_drop") { operations.drop($0) }
    }

    /// Frames between the application and the converter (latency), from `snd_pcm_delay`.
    public func delay() throws(ALSAError) -> Int {
        var frames = 0
        try check(function: "snd_pcm_delay") { operations.delay($0, &frames) }
        return frames
    }

    /// Whether the PCM is an external plugin (`SND_PCM_TYPE_IOPLUG`): what a sound server's
    /// ALSA device is (PulseAudio's `pulse`, PipeWire's `pipewire`, and `default` where either
    /// is installed), as opposed to a card (`hw`, `plughw`, `dsnoop` over one).
    public var isExternalPlugin: Bool {
        guard let handle else { return false }
        return snd_pcm_type(handle) == SND_PCM_TYPE_IOPLUG
    }

    /// The device's current state.
    public var state: ALSAPCMState {
        guard let handle else { return .closed }
        return ALSAPCMState(operations.state(handle))
    }

    // MARK: Internal, allocation-free twins for the capture loop

    /// `snd_pcm_readi`'s raw result: frames, or a negative errno code.
    func readFrames(into buffer: UnsafeMutableRawPointer, frames: Int) -> Int {
        guard let handle else { return Int(-EBADFD) }
        ALSAErrorCapture.clear()
        return operations.readInterleaved(handle, buffer, frames)
    }

    func prepareCode() -> Int32 {
        guard let handle else { return -EBADFD }
        return operations.prepare(handle)
    }

    func resumeCode() -> Int32 {
        guard let handle else { return -EBADFD }
        return operations.resume(handle)
    }

    /// How long to sleep between `snd_pcm_resume` attempts that return `-EAGAIN`
    /// (aplay sleeps a whole second; we stay responsive).
    static let resumeRetryMicroseconds: useconds_t = 10_000
    /// Give up resuming (and prepare instead) after this many `-EAGAIN`s: 5 s.
    static let resumeAttempts = 500

    /// After `-ESTRPIPE`, like aplay's `suspend()`: resume while the device says "not
    /// yet"; returns the last resume code (0 when resumed, negative when the caller
    /// should prepare instead).
    func resumeAfterSuspendCode() -> Int32 {
        var attempts = 0
        var code = resumeCode()
        while code == -EAGAIN, attempts < Self.resumeAttempts {
            usleep(Self.resumeRetryMicroseconds)
            attempts += 1
            code = resumeCode()
        }
        return code
    }

    /// Frames ready to read now (`snd_pcm_avail_update`), or a negative error code.
    func availableFrames() -> Int {
        guard let handle else { return Int(-EBADFD) }
        return operations.availableUpdate(handle)
    }

    func waitCode(milliseconds: Int32) -> Int32 {
        guard let handle else { return -EBADFD }
        return operations.wait(handle, milliseconds: milliseconds)
    }

    /// How many frames the overrun that just happened lost, as aplay's `xrun()`
    /// measures it: the time from the trigger timestamp (when the xrun stopped the
    /// stream) to now, at the negotiated rate. Zero when the device is not in the
    /// XRUN state or cannot tell.
    func overrunLostFrames() -> Int {
        guard let handle, let statusObject, let rate = setup?.format.sampleRate else { return 0 }
        let snapshot = operations.status(handle, statusObject)
        guard snapshot.code >= 0, snapshot.state == SND_PCM_STATE_XRUN else { return 0 }
        return Self.frames(from: snapshot.triggerTime, to: snapshot.statusTime, rate: rate)
    }

    /// Frames at `rate` between two timestamps (0 when `end` is not after `start`).
    static func frames(from start: timespec, to end: timespec, rate: Int) -> Int {
        let nanoseconds = (Int(end.tv_sec) - Int(start.tv_sec)) * 1_000_000_000
            + (Int(end.tv_nsec) - Int(start.tv_nsec))
        guard nanoseconds > 0 else { return 0 }
        return Int((Int64(nanoseconds) * Int64(rate)) / 1_000_000_000)
    }

    // MARK: Helpers

    var openHandle: OpaquePointer? { handle }

    func makeError(_ code: Int32, function: String, detail: String = "") -> ALSAError {
        ALSAError(
            code: code, function: function, device: device, stream: stream,
            alsaMessage: ALSAErrorCapture.lastMessage(), detail: detail)
    }

    private func closedError(function: String) -> ALSAError {
        ALSAError(code: -EBADFD, function: function, device: device, stream: stream, detail: "the device is closed")
    }

    private func check(function: String, _ call: (OpaquePointer) -> Int32) throws(ALSAError) {
        guard let handle else { throw closedError(function: function) }
        ALSAErrorCapture.clear()
        let code = call(handle)
        if code < 0 { throw makeError(code, function: function) }
    }

    func record(setup: ALSAStreamSetup) {
        self.setup = setup
    }

    private func releaseConfiguration() {
        if let configuration {
            snd_config_delete(configuration)
            self.configuration = nil
        }
    }
}

/// The result of an `snd_pcm_open` running on a thread of its own, handed to the waiting side
/// unless that gave up first (then the opening thread releases what it got).
private final class PendingOpen: Sendable {
    struct Outcome: Sendable {
        var code: Int32
        /// The PCM's handle, when the open gave one.
        var opened: PCMObjects
        /// alsa-lib's message on the opening thread (the capture buffer is per thread).
        var message: String
    }

    private enum State { case waiting, delivered(Outcome), abandoned }
    private let state = Mutex(State.waiting)

    /// Hands the outcome over; `false` when the waiting side has already given up.
    func deliver(_ outcome: Outcome) -> Bool {
        state.withLock { state in
            guard case .waiting = state else { return false }
            state = .delivered(outcome)
            return true
        }
    }

    /// Gives up waiting; `false` when the outcome is already there (then use it).
    func abandon() -> Bool {
        state.withLock { state in
            guard case .waiting = state else { return false }
            state = .abandoned
            return true
        }
    }

    var outcome: Outcome? {
        state.withLock { state in
            if case .delivered(let outcome) = state { return outcome }
            return nil
        }
    }
}

/// alsa-lib's objects for one PCM (its handle, its status object, the configuration it was
/// opened with), as they pass from one thread to the next: the configuration to the thread
/// that opens the device, the handle it opened back to the side that waited for it (or, when
/// that gave up, to nobody: the opening thread releases it), and all of them from the owner
/// that closes the PCM to the thread that closes it. Whoever hands them over uses none of them
/// again, which alsa-lib needs (one thread at a time per PCM) and Swift cannot check for
/// `OpaquePointer`s (a `sending` hand-over stops at the `Mutex` the waiting side reads):
/// `@unchecked Sendable` for the hand-over, the one such carrier here.
private struct PCMObjects: @unchecked Sendable {
    var handle: OpaquePointer?
    var status: OpaquePointer?
    var configuration: OpaquePointer?

    var holdsAnything: Bool { handle != nil || status != nil || configuration != nil }

    /// Closes the handle, then frees the status object and the configuration.
    func release(with operations: any PCMOperations) {
        if let handle { _ = operations.close(handle) }
        if let status { operations.freeStatus(status) }
        if let configuration { snd_config_delete(configuration) }
    }
}
