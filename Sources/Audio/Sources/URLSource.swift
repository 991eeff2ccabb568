import SoundFiles
import Streaming

/// A network stream as the microphone (`--source url:URL`): FFmpeg decodes it, resampled and
/// remixed to the recording's format, so a memo of a 44.1 kHz radio stream is a 48 kHz memo
/// like any other.
///
/// Paced to real time (a stream with a length downloads faster than it plays; a live stream
/// is paced by its server anyway), unless `paced` is false. A live stream that drops ends the
/// capture with the cause (the memo keeps what was recorded); a stream with a length ends at
/// its end.
public final class URLSource: CaptureSource {
    public let format: StreamFormat
    public let name: String
    /// The stream's own description (codec, its rate, its name).
    public let streamName: String?

    private let decoder: StreamDecoder
    private let interruption = StreamInterruption()
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
        self.format = format
        name = "url:\(url)"
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
                throw CaptureError(.io, error.description)
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
        pending.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            buffer.copyMemory(from: base + pendingOffset, byteCount: count * bytesPerFrame)
        }
        pendingOffset += count * bytesPerFrame
        pacer?.wait(untilFrame: framesDelivered + count)
        framesDelivered += count
        return CaptureRead(frames: count)
    }

    public func close() {
        interruption.requestStop()
        decoder.close()
    }
}
