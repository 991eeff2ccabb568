import CPulseLoader
import SoundFiles
import Synchronization

/// Plays to a sink of the sound server through libpulse: what `--device pulse:NAME` opens.
///
/// Opening first lists the server's sinks (`PulseDevices`, bounded by its timeout), so a server
/// that does not answer or a name it does not have fails at once, the latter with the names it
/// has; then a playback stream connects in the file's own rate, channels and sample format (the
/// server converts), asking for `targetMilliseconds` of latency, on a connection and main loop
/// of its own that the playing thread drives. A named sink's stream may not be moved
/// (`PA_STREAM_DONT_MOVE`): a sink removed while it plays ends playback with a message instead
/// of the server carrying on elsewhere; "default" may be moved, so it follows the server's
/// default sink.
///
/// Every wait for the server lasts at most `waitMilliseconds`, after which the caller's
/// `stopRequested` is asked: a stalled server (stopped, not gone) cannot hold a stop. The server
/// counts an underflow when the stream ran dry while playing; each is an underrun here.
///
/// Used by one thread at a time (created on one, then handed to the playing thread), as
/// `ALSAPCM` is; the underrun count, read from other threads, is atomic.
final class PulsePlaybackStream: @unchecked Sendable {
    /// The format `write` expects: the file's own (the server converts).
    let format: StreamFormat
    /// "pulse:NAME".
    let name: String
    /// The server's address, as libpulse reached it.
    let server: String
    private let sink: String
    private let connection: PulseConnection
    private var stream: OpaquePointer?
    private let counter = UnderflowCounter()
    /// Frames written since the stream was made ready (opened, flushed): all still queued
    /// while the server has no timing to say otherwise.
    private var writtenSinceFlush = 0
    /// The latency asked for, in frames: what is queued at most once playing.
    let targetFrames: Int

    /// The name that opens the server's default sink.
    static let defaultName = "default"
    /// The latency asked of the server.
    static let targetMilliseconds = 200
    /// The longest one wait for the server lasts before `stopRequested` is asked again.
    static let waitMilliseconds = 100
    /// How long the stream may take to connect.
    static let startTimeout: Duration = .seconds(5)

    /// Opens a playback stream to `sink` in `format`.
    ///
    /// - Throws: `PulseError`: `.noSuchSink` with the names the server has; `.noServer`,
    ///   `.timedOut`, `.libraryMissing`; `.failed` when the stream cannot open.
    init(sink: String, format: StreamFormat, server: String? = nil) throws(PulseError) {
        let devices = try PulseDevices.list(server: server)
        let isDefault = sink == Self.defaultName
        guard isDefault || devices.sinks.contains(where: { $0.name == sink }) else {
            throw PulseError(.noSuchSink, server: devices.server, source: sink, available: devices.sinks.map(\.name))
        }
        let connection = try PulseConnection(server: devices.server, timeout: PulseDevices.timeout)
        var spec = pa_sample_spec(
            format: PulseSampleFormat.of(format.sampleFormat), rate: UInt32(clamping: format.sampleRate),
            channels: UInt8(clamping: format.channels))
        let targetFrames = max(1, format.sampleRate * Self.targetMilliseconds / 1000)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32(clamping: targetFrames * format.bytesPerFrame), prebuf: UInt32.max,
            minreq: UInt32.max, fragsize: UInt32.max)
        guard let stream = pa_stream_new(connection.context, "playback", &spec, nil) else {
            throw PulseError.libpulse(.failed, code: pa_context_errno(connection.context), server: devices.server, source: sink)
        }
        let pinned = isDefault ? 0 : PA_STREAM_DONT_MOVE.rawValue
        let flags = pa_stream_flags_t(
            pinned | PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                | PA_STREAM_INTERPOLATE_TIMING.rawValue)
        guard pa_stream_connect_playback(stream, isDefault ? nil : sink, &attributes, flags, nil, nil) >= 0 else {
            let code = pa_context_errno(connection.context)
            pa_stream_unref(stream)
            throw PulseError.libpulse(.failed, code: code, server: devices.server, source: sink)
        }
        try connection.waitUntilReady(stream, within: Self.startTimeout, source: sink)
        pa_stream_set_underflow_callback(stream, { _, userdata in
            guard let userdata else { return }
            Unmanaged<UnderflowCounter>.fromOpaque(userdata).takeUnretainedValue().count.add(1, ordering: .relaxed)
        }, Unmanaged.passUnretained(counter).toOpaque())
        self.connection = connection
        self.stream = stream
        self.format = format
        self.sink = sink
        self.server = devices.server
        self.targetFrames = targetFrames
        self.name = "pulse:" + sink
    }

    deinit {
        close()
    }

    /// Underflows the server reported so far.
    var underruns: Int { counter.count.load(ordering: .relaxed) }

    /// Queues all `frames` interleaved frames, waiting while the server's buffer is full,
    /// unless `stopRequested` says to stop first.
    ///
    /// - Returns: The frames queued: all of them unless a stop was requested.
    /// - Throws: `PulseError` when the sink went away, the server did, or libpulse refused.
    func write(from buffer: UnsafeRawPointer, frames: Int, stopRequested: () -> Bool) throws(PulseError) -> Int {
        guard let stream else { return 0 }
        let bytesPerFrame = format.bytesPerFrame
        var remaining = frames
        var position = buffer
        while remaining > 0 {
            try checkStream(stream)
            let writable = pa_stream_writable_size(stream)
            if writable < 0 { throw failure() }
            let count = min(remaining, writable / bytesPerFrame)
            if count == 0 {
                guard connection.waitForEvents(upTo: .milliseconds(Self.waitMilliseconds)) else { throw failure() }
                if stopRequested() { break }
                continue
            }
            guard pa_stream_write(stream, position, count * bytesPerFrame, nil, 0, PA_SEEK_RELATIVE) >= 0 else {
                throw failure()
            }
            writtenSinceFlush += count
            remaining -= count
            position += count * bytesPerFrame
        }
        // Hands what was written to the server now, not at the next wait.
        guard connection.waitForEvents(upTo: .zero) else { throw failure() }
        return frames - remaining
    }

    /// Frames written but not yet heard: the server's latency for the stream, or, while it
    /// has no timing yet, everything written since the stream was made ready (at most what
    /// it holds).
    func queuedFrames() -> Int {
        guard let stream else { return 0 }
        var microseconds: pa_usec_t = 0
        var negative: Int32 = 0
        if pa_stream_get_latency(stream, &microseconds, &negative) >= 0 {
            if negative != 0 { return 0 }
            // Saturating: whatever the server answers, never a trap; never more than written.
            let (product, overflowed) = microseconds.multipliedReportingOverflow(by: UInt64(format.sampleRate))
            return overflowed ? writtenSinceFlush : min(writtenSinceFlush, Int(clamping: product / 1_000_000))
        }
        return min(writtenSinceFlush, targetFrames)
    }

    /// Discards what is queued (seek, pause); the stream buffers afresh before it plays on.
    func discardQueued() throws(PulseError) {
        guard let stream else { return }
        try connection.perform(within: PulseDevices.timeout) { _ in pa_stream_flush(stream, nil, nil) }
        writtenSinceFlush = 0
    }

    /// Waits until everything queued has been played, unless `stopRequested` says to stop
    /// first (then what is queued is dropped by `close`).
    ///
    /// - Returns: Whether it drained.
    func drain(stopRequested: () -> Bool) throws(PulseError) -> Bool {
        guard let stream else { return true }
        guard let operation = pa_stream_drain(stream, nil, nil) else { throw failure() }
        defer { pa_operation_unref(operation) }
        while pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            try checkStream(stream)
            guard connection.waitForEvents(upTo: .milliseconds(Self.waitMilliseconds)) else { throw failure() }
            if stopRequested() { return false }
        }
        try checkStream(stream)
        return true
    }

    /// Disconnects the stream. Idempotent.
    func close() {
        guard let stream else { return }
        pa_stream_set_underflow_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
        self.stream = nil
    }

    /// Throws when the stream or the connection has failed.
    private func checkStream(_ stream: OpaquePointer) throws(PulseError) {
        if pa_stream_get_state(stream) != PA_STREAM_READY || !connection.isConnected { throw failure() }
    }

    /// What ended playback: the sink removed, the server gone, or libpulse's refusal.
    private func failure() -> PulseError {
        let code = pa_context_errno(connection.context)
        let removed = code == Int32(PA_ERR_KILLED.rawValue) || code == Int32(PA_ERR_NOENTITY.rawValue)
            || (connection.isConnected && stream.map { pa_stream_get_state($0) == PA_STREAM_FAILED } == true)
        let kind: PulseError.Kind = removed ? .sinkRemoved : connection.isConnected ? .failed : .serverGoneWhilePlaying
        return PulseError.libpulse(kind, code: code, server: server, source: sink)
    }
}

/// The underflows the server reported, counted by libpulse's callback on the playing thread
/// and read from others.
private final class UnderflowCounter: Sendable {
    let count = Atomic<Int>(0)
}
