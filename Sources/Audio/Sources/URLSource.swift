import Glibc
import Vocabulary
import SoundFiles
import Streaming

/// A network stream as the microphone (`--source url:URL`): FFmpeg decodes it, resampled and
/// remixed to the recording's format, so a memo of a 44.1 kHz radio stream is a 48 kHz memo
/// like any other.
///
/// Paced to real time (a stream with a length downloads faster than it plays; a live stream
/// is paced by its server anyway), unless `paced` is false. A live stream that drops or stalls
/// is reconnected with `StreamOptions`' backoff; the time it was away is reported as a gap
/// (`CaptureRead.overruns` 1, `lostFrames` its length), as an input's overrun is. Past the
/// attempts, or for a stream with a length cut short, capture ends with the cause (the memo keeps
/// what was recorded).
public final class URLSource: CaptureSource {
    public let format: StreamFormat
    public let name: String
    /// The stream's own description (codec, its rate, its name).
    public let streamName: String?

    private var decoder: StreamDecoder
    private let interruption = StreamInterruption()
    private let url: String
    private let options: StreamOptions
    /// Drops reconnected since the last read, and the frames they lost.
    private var gaps = 0
    private var lostFrames = 0
    private var pacer: Pacer?
    private var framesDelivered = 0
    /// Decoded frames not yet delivered (a decoded block is larger than a capture read).
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var ended = false

    /// Connects to `url` and prepares to deliver `format`.
    ///
    /// - Throws: `CaptureError` of kind `.io` with the stream's cause ("HTTP 404 Not Found from …").
    public init(url: String, format: StreamFormat, options: StreamOptions = .init(), paced: Bool = true) throws(CaptureError) {
        do {
            decoder = try StreamDecoder(url: url, options: options, interruption: interruption, target: format)
        } catch {
            throw CaptureError(.io, error.description)
        }
        self.url = url
        self.options = options
        self.format = format
        name = InputName.url(url).description
        streamName = decoder.streamName
        pacer = paced ? Pacer(sampleRate: format.sampleRate) : nil
    }

    public func read(into buffer: UnsafeMutableRawPointer, frames: Int) throws(CaptureError) -> CaptureRead {
        let bytesPerFrame = format.bytesPerFrame
        while pending.count - pendingOffset < bytesPerFrame, !ended {
            let block: UnsafeRawPointer
            let count: Int
            do {
                (block, count) = try decoder.decode()
            } catch {
                guard decoder.isLive, error.isDrop else { throw CaptureError(.io, error.description) }
                try reconnect(after: error)
                continue
            }
            if count == 0 {
                ended = true
                break
            }
            if pendingOffset > 0 {
                pending.removeFirst(pendingOffset)
                pendingOffset = 0
            }
            pending.append(contentsOf: UnsafeRawBufferPointer(start: block, count: count * bytesPerFrame))
        }
        let available = (pending.count - pendingOffset) / bytesPerFrame
        let count = min(frames, available)
        if count == 0 { return CaptureRead(frames: 0, endOfStream: true) }
        defer {
            gaps = 0
            lostFrames = 0
        }
        pending.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            buffer.copyMemory(from: base + pendingOffset, byteCount: count * bytesPerFrame)
        }
        pendingOffset += count * bytesPerFrame
        pacer?.wait(untilFrame: framesDelivered + count)
        framesDelivered += count
        return CaptureRead(frames: count, overruns: gaps, lostFrames: lostFrames)
    }

    /// Reconnects a dropped live stream, `options.reconnectAttempts` tries at most, waiting
    /// the backoff before each; counts the time away as a gap.
    ///
    /// - Throws: `CaptureError` with the last cause when every attempt failed.
    private func reconnect(after drop: StreamError) throws(CaptureError) {
        let began = ContinuousClock.now
        var cause = drop
        for attempt in 1...max(1, options.reconnectAttempts) where options.reconnectAttempts > 0 {
            let until = ContinuousClock.now + .milliseconds(Int(options.reconnectDelay(forAttempt: attempt) * 1000))
            while ContinuousClock.now < until, !interruption.isStopRequested { usleep(20_000) }
            if interruption.isStopRequested { break }
            do {
                let next = try StreamDecoder(url: url, options: options, interruption: interruption, target: format)
                decoder.close()
                decoder = next
                let away = ContinuousClock.now - began
                gaps += 1
                lostFrames += Int((Double(away.components.seconds) + Double(away.components.attoseconds) / 1e18) * Double(format.sampleRate))
                // The pacer's clock goes on: frames after the gap are due at once, not later.
                return
            } catch {
                cause = error
                if !error.isDrop, !Self.isConnection(error) { break }
            }
        }
        throw CaptureError(.io, cause.description)
    }


    private static func isConnection(_ error: StreamError) -> Bool {
        if case .connection = error.kind { return true }
        return false
    }

    public func close() {
        interruption.requestStop()
        decoder.close()
    }
}
