import CPulseLoader
import SoundFiles
import Synchronization
import Vocabulary

/// Captures from a source of the sound server through libpulse: the `CaptureSource` behind
/// `--source pulse:NAME`.
///
/// Opening first lists the server's sources (`PulseDevices`, bounded by its timeout), so a
/// server that does not answer or a name it does not have fails at once, the latter with the
/// names it has; then a record stream connects at the recording's own rate, channels and sample
/// format (the server converts; its default rate is 44.1 kHz), with fragments of
/// `fragmentMilliseconds`, on a connection and main loop of its own that the capture thread
/// drives. A named source's stream may not be moved (`PA_STREAM_DONT_MOVE`): a source removed
/// while it is recorded ends capture instead of the server carrying on from another source.
/// "default" connects to no source by name and may be moved, so it follows the server's
/// default: the server moves it when the default source changes, and to the new default when
/// its source is removed (PulseAudio's core does both, without extra modules).
///
/// With `whenLost` `.continueFromDefault` a named source that is removed does not end capture:
/// the read that meets the removal opens a new stream from the default source (one that may be
/// moved, as "default"'s) on the same connection, and later reads wait for it, at most
/// `waitMilliseconds` each and `startTimeout` in all. Its first read counts the time without
/// audio as an overrun with its frames and the switch is kept (`inputSwitches`). Only that
/// switch allocates.
///
/// A read returns what the server has delivered, waiting at most `waitMilliseconds` for it, so
/// the capture thread gets back to its stop flag however the server behaves (a stalled server
/// delivers nothing); a hole in the stream (data the server dropped) is counted as an overrun.
/// A failed stream or connection ends capture as `.disconnected` (the source was removed, the
/// server went away) or `.io`, naming the server. The loop allocates nothing.
///
/// Used by one thread at a time, as the `CaptureSource` contract requires.
public final class PulseCaptureSource: CaptureSource {
    public let format: StreamFormat
    /// "pulse:NAME".
    public let name: String
    /// The server's address, as libpulse reached it.
    public let server: String

    private let source: String
    private let connection: PulseConnection
    private let whenLost: ServerSourceLoss
    private var spec: pa_sample_spec
    private var attributes: pa_buffer_attr
    private var stream: OpaquePointer?
    /// Frames delivered so far.
    private var deliveredFrames = 0
    /// While a removed source is replaced by the default: when it went away and why.
    private var lost: (at: ContinuousClock.Instant, error: CaptureError)?
    private let switches = Mutex<[InputSwitch]>([])
    /// The fragment `pa_stream_peek` gave and how much of it is already delivered.
    private var fragment: UnsafeRawPointer?
    private var fragmentBytes = 0
    private var fragmentOffset = 0

    /// The length of the fragments the server sends.
    public static let fragmentMilliseconds = 20
    /// The longest a `read` waits for the server before returning with no frames.
    static let waitMilliseconds = 100
    /// How long the stream may take to start once connected.
    static let startTimeout: Duration = .seconds(5)

    /// Opens a record stream from `source` in `format`.
    ///
    /// - Parameters:
    ///   - source: The server's name for the source, or "default" for its default source.
    ///   - format: The format to deliver; the server converts to it.
    ///   - server: An address (`unix:/path/native`); nil for libpulse's own choice.
    ///   - whenLost: What a removal of the source does (a named source's: "default" follows
    ///     the server's default anyway).
    /// - Throws: `PulseError`: `.noSuchSource` with the names the server has; `.noServer`,
    ///   `.timedOut`, `.libraryMissing`; `.failed` when the stream cannot open.
    public init(
        source: String, format: StreamFormat, server: String? = nil, whenLost: ServerSourceLoss = .stop
    ) throws(PulseError) {
        let devices = try PulseDevices.list(server: server)
        let isDefault = source == Self.defaultName
        guard isDefault || devices.sources.contains(where: { $0.name == source }) else {
            throw PulseError(
                .noSuchSource, server: devices.server, source: source, available: devices.sources.map(\.name))
        }
        let connection = try PulseConnection(server: devices.server, timeout: PulseDevices.timeout)
        var spec = pa_sample_spec(
            format: PulseSampleFormat.of(format.sampleFormat), rate: UInt32(clamping: format.sampleRate),
            channels: UInt8(clamping: format.channels))
        let fragmentFrames = max(1, format.sampleRate * Self.fragmentMilliseconds / 1000)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
            fragsize: UInt32(clamping: fragmentFrames * format.bytesPerFrame))
        guard let stream = Self.connect(connection, source: isDefault ? nil : source, spec: &spec, attributes: &attributes)
        else {
            throw PulseError.libpulse(.failed, code: pa_context_errno(connection.context), server: devices.server, source: source)
        }
        try connection.waitUntilReady(stream, within: Self.startTimeout, source: source)
        self.connection = connection
        self.whenLost = isDefault ? .stop : whenLost
        self.spec = spec
        self.attributes = attributes
        self.stream = stream
        self.format = format
        self.source = source
        self.server = devices.server
        self.name = InputName.pulse(source: source).description
    }

    /// The name that opens the server's default source.
    public static let defaultName = "default"

    /// Starts a record stream from `source` (nil: the default source, a stream the server may
    /// move; a name: one it may not); nil when libpulse refuses.
    private static func connect(
        _ connection: PulseConnection, source: String?, spec: inout pa_sample_spec, attributes: inout pa_buffer_attr
    ) -> OpaquePointer? {
        guard let stream = pa_stream_new(connection.context, "recording", &spec, nil) else { return nil }
        let pinned = source == nil ? 0 : PA_STREAM_DONT_MOVE.rawValue
        let flags = pa_stream_flags_t(pinned | PA_STREAM_ADJUST_LATENCY.rawValue)
        guard pa_stream_connect_record(stream, source, &attributes, flags) >= 0 else {
            pa_stream_unref(stream)
            return nil
        }
        return stream
    }

    public var inputSwitches: [InputSwitch] { switches.withLock { $0 } }

    deinit {
        close()
    }

    public func read(into buffer: UnsafeMutableRawPointer, frames: Int) throws(CaptureError) -> CaptureRead {
        var result = CaptureRead(frames: 0)
        guard frames > 0 else { return result }
        guard var stream else {
            throw CaptureError(.io, "the sound server's stream from \"\(source)\" is closed")
        }
        let bytesPerFrame = format.bytesPerFrame
        let deadline = ContinuousClock.now + .milliseconds(Self.waitMilliseconds)
        if lost != nil {
            guard try replacementIsRunning(until: deadline), let replacement = self.stream else { return result }
            stream = replacement
            result.overruns += 1
            result.lostFrames += finishSwitch()
        }
        while result.frames < frames {
            if fragment == nil {
                var data: UnsafeRawPointer?
                var length = 0
                if pa_stream_peek(stream, &data, &length) < 0 { return try lose(result) }
                if length == 0 {
                    // Nothing waiting: return what this read has, else wait for the server.
                    if result.frames > 0 { return delivered(result) }
                    guard pa_stream_get_state(stream) == PA_STREAM_READY, connection.isConnected else {
                        return try lose(result)
                    }
                    let remaining = deadline - .now
                    if remaining <= .zero { return result }
                    if !connection.waitForEvents(upTo: remaining) { throw failure() }
                    continue
                }
                guard let data else {
                    // A hole: audio the server dropped before this reader took it.
                    result.overruns += 1
                    result.lostFrames += length / bytesPerFrame
                    pa_stream_drop(stream)
                    continue
                }
                fragment = data
                fragmentBytes = length
                fragmentOffset = 0
            }
            guard let fragment else { continue }
            let available = (fragmentBytes - fragmentOffset) / bytesPerFrame
            let count = min(available, frames - result.frames)
            (buffer + result.frames * bytesPerFrame).copyMemory(
                from: fragment + fragmentOffset, byteCount: count * bytesPerFrame)
            result.frames += count
            fragmentOffset += count * bytesPerFrame
            // A fragment is whole frames; a partial frame left over would be dropped with it.
            if fragmentBytes - fragmentOffset < bytesPerFrame {
                self.fragment = nil
                pa_stream_drop(stream)
            }
        }
        return delivered(result)
    }

    private func delivered(_ result: CaptureRead) -> CaptureRead {
        deliveredFrames += result.frames
        return result
    }

    /// The stream failed: capture ends (`failure()`), or, for a named source the server
    /// removed and `whenLost` `.continueFromDefault`, a stream from the default source starts
    /// and `result` (what this read has) is returned.
    private func lose(_ result: CaptureRead) throws(CaptureError) -> CaptureRead {
        let error = failure()
        guard whenLost == .continueFromDefault, lost == nil, case .pulse(let cause)? = error.cause,
            cause.kind == .sourceRemoved, connection.isConnected, let stream
        else { throw error }
        fragment = nil
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
        self.stream = nil
        guard let replacement = Self.connect(connection, source: nil, spec: &spec, attributes: &attributes) else {
            throw error
        }
        self.stream = replacement
        lost = (.now, error)
        return delivered(result)
    }

    /// Waits, until `deadline`, for the stream from the default source to run; false while it
    /// is still starting.
    ///
    /// - Throws: The removal's error when the replacement fails or takes over `startTimeout`.
    private func replacementIsRunning(until deadline: ContinuousClock.Instant) throws(CaptureError) -> Bool {
        guard let lost, let stream else { return true }
        while pa_stream_get_state(stream) == PA_STREAM_CREATING {
            let remaining = deadline - .now
            if .now - lost.at > Self.startTimeout { throw lost.error }
            if remaining <= .zero { return false }
            if !connection.waitForEvents(upTo: remaining) { throw failure() }
        }
        guard pa_stream_get_state(stream) == PA_STREAM_READY else { throw lost.error }
        return true
    }

    /// Keeps the switch to the default source, now running; returns the gap in frames.
    private func finishSwitch() -> Int {
        guard let lost, let stream else { return 0 }
        self.lost = nil
        let gap = ContinuousClock.now - lost.at
        let seconds = Double(gap.components.seconds) + Double(gap.components.attoseconds) / 1e18
        let device = pa_stream_get_device_name(stream).map { String(cString: $0) }
        let change = InputSwitch(
            lost: name, continuedFrom: InputName.pulse(source: device ?? Self.defaultName).description,
            afterFrames: deliveredFrames, gapSeconds: seconds)
        switches.withLock { $0.append(change) }
        return Int(seconds * Double(format.sampleRate))
    }

    /// Ends the stream and the connection. Safe to call more than once; call it once no `read` runs.
    public func close() {
        guard let stream else { return }
        self.stream = nil
        fragment = nil
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
    }

    /// The words a person reads when capture stops, from the connection's error code.
    private func failure() -> CaptureError {
        let code = pa_context_errno(connection.context)
        let removed = code == Int32(PA_ERR_KILLED.rawValue) || code == Int32(PA_ERR_NOENTITY.rawValue)
        let kind: PulseError.Kind = removed ? .sourceRemoved : connection.isConnected ? .failed : .serverGone
        let error = PulseError.libpulse(kind, code: code, server: server, source: source)
        return CaptureError(kind == .failed ? .io : .disconnected, error.description, cause: .pulse(error))
    }
}
