import CPulseLoader
import SoundFiles
import Vocabulary

/// Captures from a source of the sound server through libpulse's simple API: the
/// `CaptureSource` behind `--source pulse:NAME`.
///
/// Opening first lists the server's sources (`PulseDevices`, bounded by its timeout), so a
/// server that does not answer or a name it does not have fails at once, the latter with the
/// names it has; then a record stream opens at the recording's own rate, channels and sample
/// format (the server converts; its default rate is 44.1 kHz), with fragments of
/// `fragmentMilliseconds`. Each `read` takes at most one fragment, which the server delivers in
/// real time; a read error ends capture, as `.disconnected` (the source was removed, the
/// server went away) or `.io`, naming the server. libpulse's simple API reports no overruns:
/// the server keeps what a late reader has not taken, up to its own limit.
///
/// Used by one thread at a time, as the `CaptureSource` contract requires.
public final class PulseCaptureSource: CaptureSource {
    public let format: StreamFormat
    /// "pulse:NAME".
    public let name: String
    /// The server's address, as libpulse reached it.
    public let server: String

    private let source: String
    private let fragmentFrames: Int
    private var stream: OpaquePointer?

    /// How much a read waits for at most: the server sends fragments of this length.
    public static let fragmentMilliseconds = 20

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
        var spec = pa_sample_spec(
            format: Self.sampleFormat(format.sampleFormat), rate: UInt32(clamping: format.sampleRate),
            channels: UInt8(clamping: format.channels))
        let fragmentFrames = max(1, format.sampleRate * Self.fragmentMilliseconds / 1000)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
            fragsize: UInt32(clamping: fragmentFrames * format.bytesPerFrame))
        var code: Int32 = 0
        let stream = pa_simple_new(
            devices.server, PulseConnection.clientName, PA_STREAM_RECORD, isDefault ? nil : source, "recording", &spec, nil,
            &attributes, &code)
        guard let stream else {
            throw PulseError.libpulse(.failed, code: code, server: devices.server, source: source)
        }
        self.stream = stream
        self.format = format
        self.fragmentFrames = fragmentFrames
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
        guard frames > 0 else { return CaptureRead(frames: 0) }
        guard let stream else {
            throw CaptureError(.io, "the sound server's stream from \"\(source)\" is closed")
        }
        let count = min(frames, fragmentFrames)
        var code: Int32 = 0
        if pa_simple_read(stream, buffer, count * format.bytesPerFrame, &code) < 0 {
            throw failure(code)
        }
        return CaptureRead(frames: count)
    }

    /// Ends the stream. Safe to call more than once; call it once no `read` runs.
    public func close() {
        guard let stream else { return }
        self.stream = nil
        pa_simple_free(stream)
    }

    /// The words a person reads when capture stops.
    private func failure(_ code: Int32) -> CaptureError {
        let removed = code == Int32(PA_ERR_KILLED.rawValue) || code == Int32(PA_ERR_NOENTITY.rawValue)
        let gone = code == Int32(PA_ERR_CONNECTIONTERMINATED.rawValue) || code == Int32(PA_ERR_CONNECTIONREFUSED.rawValue)
        let kind: PulseError.Kind = removed ? .sourceRemoved : gone ? .serverGone : .failed
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
