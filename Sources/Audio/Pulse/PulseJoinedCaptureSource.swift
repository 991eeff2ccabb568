import CPulseLoader
import SoundFiles
import Synchronization
import Vocabulary

/// Captures two sources of one sound server as the channels of one stream: the `CaptureSource`
/// behind `--source pulse:A+pulse:B` and `meeting` (the default source and the default sink's
/// monitor). Each frame holds the first input's channels, then the second's: 2 channels when
/// each input is mixed to mono (the first left, the second right), 4 when each is stereo.
///
/// Opening lists the server's sources, so a name it does not have fails at once with the names
/// it has; then one connection opens both record streams, corked, at the recording's rate and
/// sample format with each input's own channel count (the server resamples and mixes down), and
/// uncorks them in one turn of the main loop, which the capture thread drives.
///
/// **Alignment.** Both streams start corked and are uncorked in one turn of the main loop, so
/// the server starts them together: the first frame of each is the first its source delivers
/// after the uncorking. Measured with a click played into two null sinks at once (one the
/// microphone's feed, one the desktop), the two channels hold it 0 to 6 frames apart at 48 kHz;
/// with two sources of one sink, 0 frames, and still 0 after 20 minutes (`voicememo-bench
/// meeting`). The server's timing (`pa_stream_get_time`) is not used: on the same recording
/// its estimate of the two sources' offset wandered by ±400 frames as its updates came in.
/// Both streams are clocked by the one server and no frame is added or lost on the way (a
/// hole, frames the server dropped, is taken as silence), so two sources of one clock (null
/// sinks, one card, what the server mixes for the desktop) never drift apart. Two cards with
/// clocks of their own do: the faster one's buffer runs ahead of the other's. The drift follower
/// (`PulseDriftFollower`) takes the middle of that lead's range over each 10 s window, and when it has moved from the
/// first window's by more than `driftTolerance` (one fragment, 20 ms: less is seen with no
/// drift at all, as the chunks the server sends change), the input that ran ahead drops the
/// difference; the drop is counted (`alignmentDroppedFrames`) and reported as an overrun with
/// its frames lost, as a hole is. So two clocks of their own
/// stay within 20 ms of each other; within 10 ms holds for sources of one clock.
///
/// A read returns frames only as both inputs have them, waiting at most `waitMilliseconds`, so
/// the capture thread gets back to its stop flag whatever the server does. An input that
/// delivers nothing for `stallAfter` while the other delivers ends capture naming it; a stream
/// that fails (its source removed, the server gone) ends capture naming its input; what was
/// captured before is the recording's. The loop allocates nothing.
///
/// **Echo cancelling** (`record --echo-cancel`, `echo_cancel = on`): with a `JoinedEchoCancelling`
/// the frames are taken in whole 10 ms blocks, the second input's sound is cancelled out of the
/// first input's channels there, on the capture thread, and reads hand them out from its staging.
///
/// Used by one thread at a time, as the `CaptureSource` contract requires.
public final class PulseJoinedCaptureSource: CaptureSource {
    public let format: StreamFormat
    /// "pulse:A+pulse:B".
    public let name: String
    /// The server's address, as libpulse reached it.
    public let server: String

    private let connection: PulseConnection
    private let first: PulseJoinedInput
    private let second: PulseJoinedInput
    /// The rule that drops frames of the input that runs ahead.
    private var drift: PulseDriftFollower
    /// Frames dropped to align the inputs that no read has reported yet.
    private var droppedSinceRead = 0
    private let dropped = Atomic<Int>(0)
    /// The echo canceller the frames go through, when the recording cancels echo.
    private let echo: JoinedEchoCancelling?

    /// The length of the fragments the server sends.
    public static let fragmentMilliseconds = 20
    /// The longest a `read` waits for the server before returning with no frames.
    static let waitMilliseconds = 100
    /// How long the streams may take to start once connected.
    static let startTimeout: Duration = .seconds(5)
    /// How long each window of the drift follower is.
    static let driftWindow: Duration = .seconds(10)
    /// How far the middle of the inputs' lead may move before the one ahead drops frames: a
    /// fragment. The streams arrive in chunks of their own sizes, and a change in them moves the
    /// middle by milliseconds with no drift at all (7.5 ms measured, `voicememo-bench meeting`).
    public static let driftTolerance: Duration = .milliseconds(fragmentMilliseconds)
    /// How long one input may deliver nothing while the other delivers.
    public static let stallAfter: Duration = .seconds(2)

    /// The channels of each input in a recording of `channels`: 1 for 2 (each mixed to mono),
    /// 2 for 4 (each in stereo), nil for any other count.
    public static func channelsPerInput(recording channels: Int) -> Int? {
        switch channels {
        case 2: 1
        case 4: 2
        default: nil
        }
    }

    /// Opens `first` and `second` of the server at `server` (libpulse's own choice when nil).
    ///
    /// - Parameters:
    ///   - first: The server's name for the first input ("default": its default source).
    ///   - second: The second's ("@DEFAULT_MONITOR@": the default sink's monitor).
    ///   - format: The rate and sample format to deliver; its channels 2 or 4 (any other count
    ///     is taken as 2).
    ///   - echo: Cancels the second input's sound out of the first's channels; made for `format`
    ///     with its channels per input (`channelsPerInput(recording:)`).
    /// - Throws: `PulseError`: `.noSuchSource` with the names the server has; `.noServer`,
    ///   `.timedOut`, `.libraryMissing`; `.failed` when a stream cannot open.
    public init(
        first: String, second: String, format requested: StreamFormat, server: String? = nil,
        echo: JoinedEchoCancelling? = nil
    ) throws(PulseError) {
        let devices = try PulseDevices.list(server: server)
        for source in [first, second] where !Self.has(source, devices) {
            throw PulseError(
                .noSuchSource, server: devices.server, source: source, available: devices.sources.map(\.name))
        }
        let perInput = Self.channelsPerInput(recording: requested.channels) ?? 1
        let format = StreamFormat(sampleRate: requested.sampleRate, channels: 2 * perInput, sampleFormat: requested.sampleFormat)
        let connection = try PulseConnection(server: devices.server, timeout: PulseDevices.timeout)
        let inputs = try [first, second].map { Self.serverName(of: $0, devices) }.map { source throws(PulseError) in
            try PulseJoinedInput(
                connection: connection, source: source, channels: perInput, format: format,
                fragmentMilliseconds: Self.fragmentMilliseconds, defaultName: PulseCaptureSource.defaultName)
        }
        // A stream ends before the connection it is on: closed here, not left to the order
        // in which Swift releases the two.
        do throws(PulseError) {
            try connection.iterate(within: Self.startTimeout) { inputs.allSatisfy { $0.state != PA_STREAM_CREATING } }
            for input in inputs where input.state != PA_STREAM_READY {
                throw PulseError.libpulse(.failed, code: pa_context_errno(connection.context), server: devices.server, source: input.source)
            }
        } catch {
            for input in inputs { input.close() }
            throw error
        }
        for input in inputs { input.cork(false) }
        self.connection = connection
        self.first = inputs[0]
        self.second = inputs[1]
        self.format = format
        self.echo = echo
        self.server = devices.server
        self.name = InputName.joined(first: first, second: second).description
        drift = PulseDriftFollower(
            window: Self.driftWindow,
            toleranceFrames: Int(Double(format.sampleRate) * (Self.driftTolerance / .seconds(1))))
    }

    /// The name to open `source` by: the default sink's monitor by its own name, since
    /// PipeWire's PulseAudio server (0.3.65) does not know `@DEFAULT_MONITOR@`; any other as it is.
    private static func serverName(of source: String, _ devices: PulseDeviceList) -> String {
        guard source == InputName.defaultMonitor else { return source }
        return devices.sinks.first(where: \.isDefault)?.monitorSource ?? source
    }

    /// Whether the server has `source`: by name, or its default source, or (for the default
    /// monitor) a default sink.
    private static func has(_ source: String, _ devices: PulseDeviceList) -> Bool {
        if source == PulseCaptureSource.defaultName { return true }
        if source == InputName.defaultMonitor { return devices.sinks.contains(where: \.isDefault) }
        return devices.sources.contains(where: { $0.name == source })
    }

    deinit {
        close()
    }

    /// Frames dropped so far to keep the inputs aligned (the two sources' clocks apart). Read
    /// from any thread.
    public var alignmentDroppedFrames: Int { dropped.load(ordering: .relaxed) }

    public func read(into buffer: UnsafeMutableRawPointer, frames: Int) throws(CaptureError) -> CaptureRead {
        var result = CaptureRead(frames: 0)
        guard frames > 0 else { return result }
        if let echo, echo.staged > 0 {
            result.frames = echo.handOut(into: buffer, frames: frames)
            return result
        }
        let deadline = ContinuousClock.now + .milliseconds(Self.waitMilliseconds)
        while true {
            try drain(first, into: &result)
            try drain(second, into: &result)
            if !connection.isConnected { throw failure(of: nil) }
            followDrift(at: .now)
            if droppedSinceRead > 0 {
                result.overruns += 1
                result.lostFrames += droppedSinceRead
                droppedSinceRead = 0
            }
            if let echo {
                let count = min(first.count, second.count, echo.capacity) / echo.blockFrames * echo.blockFrames
                if count > 0 {
                    take(count, into: echo.staging)
                    do throws(EchoCancellerError) {
                        try echo.cancel(frames: count)
                    } catch {
                        throw CaptureError(.io, error.description, cause: .echoCanceller(error))
                    }
                    result.frames = echo.handOut(into: buffer, frames: frames)
                    return result
                }
            } else {
                let count = min(first.count, second.count, frames)
                if count > 0 {
                    take(count, into: buffer)
                    result.frames = count
                    return result
                }
            }
            try checkStall()
            let remaining = deadline - .now
            if remaining <= .zero { return result }
            if !connection.waitForEvents(upTo: remaining) { throw failure(of: nil) }
        }
    }

    /// Moves both inputs' first `count` frames into `buffer` as joined frames.
    private func take(_ count: Int, into buffer: UnsafeMutableRawPointer) {
        first.take(count, into: buffer, stride: format.bytesPerFrame, offset: 0)
        second.take(count, into: buffer, stride: format.bytesPerFrame, offset: first.bytesPerFrame)
    }

    /// Follows how far the first input's buffer runs ahead of the second's (`PulseDriftFollower`),
    /// and drops the frames it says of the input that ran ahead.
    private func followDrift(at now: ContinuousClock.Instant) {
        let lead = (first.count - first.owedDrop) - (second.count - second.owedDrop)
        let drop = drift.observe(lead: lead, at: now)
        guard drop != 0 else { return }
        (drop > 0 ? first : second).drop(abs(drop))
        dropped.add(abs(drop), ordering: .relaxed)
        droppedSinceRead += abs(drop)
    }

    /// Takes what `input`'s stream delivered and counts its holes as overruns; throws when the
    /// stream failed.
    private func drain(_ input: PulseJoinedInput, into result: inout CaptureRead) throws(CaptureError) {
        if !input.drain() || input.state != PA_STREAM_READY { throw failure(of: input) }
        result.overruns += input.holes
        result.lostFrames += input.holeFrames
        input.holes = 0
        input.holeFrames = 0
    }

    /// Ends capture when one input has delivered nothing for `stallAfter` while the other has.
    private func checkStall() throws(CaptureError) {
        try checkStall(quiet: first, flowing: second)
        try checkStall(quiet: second, flowing: first)
    }

    private func checkStall(quiet: PulseJoinedInput, flowing: PulseJoinedInput) throws(CaptureError) {
        let limit = Self.stallAfter / .seconds(1)
        guard quiet.count == 0, flowing.bufferedSeconds >= limit else { return }
        let error = PulseError(.stalled, server: server, source: quiet.source, detail: "\(Int(limit)) s", available: [flowing.source])
        throw CaptureError(.io, error.description, cause: .pulse(error))
    }

    /// Ends both streams and the connection. Safe to call more than once; call it once no
    /// `read` runs.
    public func close() {
        first.close()
        second.close()
    }

    /// The words a person reads when capture stops, naming `input` (nil: the connection broke).
    private func failure(of input: PulseJoinedInput?) -> CaptureError {
        let code = pa_context_errno(connection.context)
        let removed = code == Int32(PA_ERR_KILLED.rawValue) || code == Int32(PA_ERR_NOENTITY.rawValue)
        let kind: PulseError.Kind = !connection.isConnected ? .serverGone : removed ? .sourceRemoved : .failed
        let error = PulseError.libpulse(kind, code: code, server: server, source: input?.source ?? name)
        return CaptureError(kind == .failed ? .io : .disconnected, error.description, cause: .pulse(error))
    }
}
