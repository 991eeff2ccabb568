import CPulseLoader
import SoundFiles

/// One of the two record streams of a `PulseJoinedCaptureSource` and the frames it delivered
/// that are not yet handed on: a ring of `bufferSeconds`, allocated once.
///
/// The stream starts corked; its owner uncorks both together. Frames the server dropped (a
/// hole) are taken as silence, so the input's timeline keeps its length and stays aligned with
/// the other's. Used by the capture thread only, as its owner is.
final class PulseJoinedInput {
    /// The server's name for the source, as given ("default", "@DEFAULT_MONITOR@", a name).
    let source: String
    let bytesPerFrame: Int
    private let sampleRate: Int
    private(set) var stream: OpaquePointer?
    private let ring: UnsafeMutableRawPointer
    private let capacity: Int
    private var start = 0
    /// Frames in the ring.
    private(set) var count = 0
    /// Frames taken out of the stream's timeline so far: handed on, or dropped to align.
    private(set) var consumed = 0
    /// Frames still to drop as they arrive (an alignment asked for more than the ring held).
    private(set) var owedDrop = 0
    /// Frames the stream delivered (holes included).
    private(set) var received = 0
    /// Holes (data the server dropped) and their frames, since the owner last took them.
    var holes = 0
    var holeFrames = 0
    /// The fragment `pa_stream_peek` gave and how much of it is already taken.
    private var fragment: UnsafeRawPointer?
    private var fragmentBytes = 0
    private var fragmentOffset = 0

    /// How much the ring holds: the longest one input may run ahead of the other.
    static let bufferSeconds = 4

    /// Creates and connects a corked record stream from `source` with `channels` channels at
    /// `format`'s rate and sample format (the server converts), fragments of
    /// `fragmentMilliseconds`.
    init(
        connection: PulseConnection, source: String, channels: Int, format: StreamFormat, fragmentMilliseconds: Int,
        defaultName: String
    ) throws(PulseError) {
        self.source = source
        sampleRate = format.sampleRate
        bytesPerFrame = channels * format.sampleFormat.bytesPerSample
        capacity = max(1, format.sampleRate * Self.bufferSeconds)
        var spec = pa_sample_spec(
            format: PulseSampleFormat.of(format.sampleFormat), rate: UInt32(clamping: format.sampleRate),
            channels: UInt8(clamping: channels))
        let fragmentFrames = max(1, format.sampleRate * fragmentMilliseconds / 1000)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
            fragsize: UInt32(clamping: fragmentFrames * bytesPerFrame))
        guard let stream = pa_stream_new(connection.context, "meeting", &spec, nil) else {
            throw PulseError.libpulse(.failed, code: pa_context_errno(connection.context), server: connection.server, source: source)
        }
        let flags = pa_stream_flags_t(
            PA_STREAM_DONT_MOVE.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_START_CORKED.rawValue)
        if pa_stream_connect_record(stream, source == defaultName ? nil : source, &attributes, flags) < 0 {
            pa_stream_unref(stream)
            throw PulseError.libpulse(.failed, code: pa_context_errno(connection.context), server: connection.server, source: source)
        }
        self.stream = stream
        ring = UnsafeMutableRawPointer.allocate(byteCount: capacity * bytesPerFrame, alignment: 16)
    }

    deinit {
        close()
        ring.deallocate()
    }

    /// The stream's state as libpulse sees it (`PA_STREAM_FAILED` once closed).
    var state: pa_stream_state_t {
        stream.map { pa_stream_get_state($0) } ?? PA_STREAM_FAILED
    }

    /// Starts (or stops) the stream; the operation is not waited for.
    func cork(_ corked: Bool) {
        guard let stream, let operation = pa_stream_cork(stream, corked ? 1 : 0, nil, nil) else { return }
        pa_operation_unref(operation)
    }

    /// Takes what the server has delivered into the ring, as much as fits; false when the
    /// stream failed.
    func drain() -> Bool {
        guard let stream else { return false }
        while true {
            if fragment == nil {
                var data: UnsafeRawPointer?
                var length = 0
                if pa_stream_peek(stream, &data, &length) < 0 { return false }
                if length == 0 { return true }
                guard let data else {
                    let frames = length / bytesPerFrame
                    holes += 1
                    holeFrames += frames
                    append(nil, frames: min(frames, capacity - count))
                    pa_stream_drop(stream)
                    continue
                }
                fragment = data
                fragmentBytes = length
                fragmentOffset = 0
            }
            guard let fragment else { continue }
            let available = (fragmentBytes - fragmentOffset) / bytesPerFrame
            let taken = append(fragment + fragmentOffset, frames: available)
            fragmentOffset += taken * bytesPerFrame
            // A fragment is whole frames; a partial frame left over goes with it.
            if fragmentBytes - fragmentOffset < bytesPerFrame {
                self.fragment = nil
                pa_stream_drop(stream)
            } else if taken == 0 {
                return true
            }
        }
    }

    /// Appends `frames` from `data` (silence when nil), dropping what is owed first; returns
    /// how many it took (fewer when the ring is full).
    @discardableResult
    private func append(_ data: UnsafeRawPointer?, frames: Int) -> Int {
        let dropping = min(owedDrop, frames)
        owedDrop -= dropping
        consumed += dropping
        let storing = min(frames - dropping, capacity - count)
        var stored = 0
        while stored < storing {
            let position = (start + count) % capacity
            let run = min(storing - stored, capacity - position)
            let target = ring + position * bytesPerFrame
            if let data {
                target.copyMemory(from: data + (dropping + stored) * bytesPerFrame, byteCount: run * bytesPerFrame)
            } else {
                target.initializeMemory(as: UInt8.self, repeating: 0, count: run * bytesPerFrame)
            }
            stored += run
            count += run
        }
        received += dropping + stored
        return dropping + stored
    }

    /// Moves the ring's first `frames` into `buffer`, frame `i` at `i * stride + offset` bytes.
    func take(_ frames: Int, into buffer: UnsafeMutableRawPointer, stride: Int, offset: Int) {
        for index in 0..<frames {
            let position = (start + index) % capacity
            (buffer + index * stride + offset).copyMemory(from: ring + position * bytesPerFrame, byteCount: bytesPerFrame)
        }
        discard(frames)
    }

    /// Drops `frames` from the input's timeline: from the ring, the rest as they arrive.
    func drop(_ frames: Int) {
        let now = min(frames, count)
        discard(now)
        owedDrop += frames - now
    }

    private func discard(_ frames: Int) {
        start = (start + frames) % capacity
        count -= frames
        consumed += frames
    }

    /// How many seconds of frames the ring holds.
    var bufferedSeconds: Double { Double(count) / Double(max(sampleRate, 1)) }

    /// Ends the stream. Safe to call more than once.
    func close() {
        guard let stream else { return }
        self.stream = nil
        fragment = nil
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
    }
}

/// libpulse's name for a sample format.
enum PulseSampleFormat {
    static func of(_ format: SampleFormat) -> pa_sample_format_t {
        switch format {
        case .int16: PA_SAMPLE_S16LE
        case .int32: PA_SAMPLE_S32LE
        case .float32: PA_SAMPLE_FLOAT32LE
        }
    }
}
