import CPulseLoader
import SoundFiles
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
    private var stream: OpaquePointer?
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
    /// - Throws: `PulseError`: `.noSuchSource` with the names the server has; `.noServer`,
    ///   `.timedOut`, `.libraryMissing`; `.failed` when the stream cannot open.
    public init(source: String, format: StreamFormat, server: String? = nil) throws(PulseError) {
        let devices = try PulseDevices.list(server: server)
        let isDefault = source == Self.defaultName
        guard isDefault || devices.sources.contains(where: { $0.name == source }) else {
            throw PulseError(
                .noSuchSource, server: devices.server, source: source, available: devices.sources.map(\.name))
        }
        let connection = try PulseConnection(server: devices.server, timeout: PulseDevices.timeout)
        var spec = pa_sample_spec(
            format: Self.sampleFormat(format.sampleFormat), rate: UInt32(clamping: format.sampleRate),
            channels: UInt8(clamping: format.channels))
        let fragmentFrames = max(1, format.sampleRate * Self.fragmentMilliseconds / 1000)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
            fragsize: UInt32(clamping: fragmentFrames * format.bytesPerFrame))
        guard let stream = pa_stream_new(connection.context, "recording", &spec, nil) else {
            throw PulseError.libpulse(.failed, code: pa_context_errno(connection.context), server: devices.server, source: source)
        }
        let pinned = isDefault ? 0 : PA_STREAM_DONT_MOVE.rawValue
        let flags = pa_stream_flags_t(pinned | PA_STREAM_ADJUST_LATENCY.rawValue)
        if pa_stream_connect_record(stream, isDefault ? nil : source, &attributes, flags) < 0 {
            pa_stream_unref(stream)
            throw PulseError.libpulse(.failed, code: pa_context_errno(connection.context), server: devices.server, source: source)
        }
        do {
            try connection.iterate(within: Self.startTimeout) { pa_stream_get_state(stream) != PA_STREAM_CREATING }
        } catch {
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
            throw error
        }
        guard pa_stream_get_state(stream) == PA_STREAM_READY else {
            let code = pa_context_errno(connection.context)
            pa_stream_unref(stream)
            throw PulseError.libpulse(.failed, code: code, server: devices.server, source: source)
        }
        self.connection = connection
        self.stream = stream
        self.format = format
        self.source = source
        self.server = devices.server
        self.name = InputName.pulse(source: source).description
    }

    /// The name that opens the server's default source.
    public static let defaultName = "default"

    deinit {
        close()
    }

    public func read(into buffer: UnsafeMutableRawPointer, frames: Int) throws(CaptureError) -> CaptureRead {
        var result = CaptureRead(frames: 0)
        guard frames > 0 else { return result }
        guard let stream else {
            throw CaptureError(.io, "the sound server's stream from \"\(source)\" is closed")
        }
        let bytesPerFrame = format.bytesPerFrame
        let deadline = ContinuousClock.now + .milliseconds(Self.waitMilliseconds)
        while result.frames < frames {
            if fragment == nil {
                var data: UnsafeRawPointer?
                var length = 0
                if pa_stream_peek(stream, &data, &length) < 0 { throw failure() }
                if length == 0 {
                    // Nothing waiting: return what this read has, else wait for the server.
                    if result.frames > 0 { return result }
                    guard pa_stream_get_state(stream) == PA_STREAM_READY, connection.isConnected else { throw failure() }
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
        return result
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

    private static func sampleFormat(_ format: SampleFormat) -> pa_sample_format_t {
        switch format {
        case .int16: PA_SAMPLE_S16LE
        case .int32: PA_SAMPLE_S32LE
        case .float32: PA_SAMPLE_FLOAT32LE
        }
    }
}
