import SoundFiles

/// Where captured audio comes from: an ALSA PCM, a test tone or a sound file.
///
/// A source is used from one thread at a time (the capture thread). `read` blocks
/// until audio is available (a device's period, or the pacing interval of a
/// generated source), then returns interleaved frames in `format`.
public protocol CaptureSource: AnyObject {
    /// The format `read` delivers, fixed once the source is open.
    var format: StreamFormat { get }

    /// A short human description, e.g. "alsa:default" or "tone 1000 Hz at -12 dBFS".
    var name: String { get }

    /// Blocks until at least one frame is available, then reads at most `frames`
    /// interleaved frames into `buffer` (which holds `frames * format.bytesPerFrame`
    /// bytes).
    ///
    /// Recoverable trouble (an ALSA overrun, a suspend) is handled inside and
    /// reported in the result, not thrown. A return with `frames == 0` and
    /// `endOfStream == true` means the source has nothing more (a file source
    /// that is not looping).
    /// - Throws: `CaptureError` when capture cannot continue (device gone, I/O error).
    func read(into buffer: UnsafeMutableRawPointer, frames: Int) throws(CaptureError) -> CaptureRead

    /// Stops capture and releases the device. Safe to call more than once.
    func close()

    /// Float samples the source itself repaired before delivering them (`UsableSamples`): a
    /// file's reader does; the engine repairs and counts what any other source delivers.
    /// Read from another thread than `read`'s.
    var replacedSamples: ReplacedSamples { get }

    /// The inputs capture went on from after the one read went away, in order (a sound
    /// server's source, `ServerSourceLoss.continueFromDefault`); none for other sources.
    /// Read from another thread than `read`'s.
    var inputSwitches: [InputSwitch] { get }
}

extension CaptureSource {
    public var replacedSamples: ReplacedSamples { ReplacedSamples() }
    public var inputSwitches: [InputSwitch] { [] }
}

/// An input that went away while it was read and the one capture went on from, in the same
/// recording (a sound server's source removed, with `on_source_lost = default`).
public struct InputSwitch: Sendable, Equatable {
    /// The input that went away, e.g. "pulse:alsa_input.usb-headset".
    public var lost: String
    /// The input capture went on from, e.g. "pulse:alsa_input.pci-analog" (the server's default).
    public var continuedFrom: String
    /// Frames the source had delivered before it went away.
    public var afterFrames: Int
    /// How long nothing was captured, from the loss to the new stream running, in seconds.
    public var gapSeconds: Double

    public init(lost: String, continuedFrom: String, afterFrames: Int, gapSeconds: Double) {
        self.lost = lost
        self.continuedFrom = continuedFrom
        self.afterFrames = afterFrames
        self.gapSeconds = gapSeconds
    }
}

/// What capture from a sound server's source does when the server removes the source.
public enum ServerSourceLoss: String, Sendable, Hashable, CaseIterable {
    /// Capture ends, keeping what was recorded (`on_source_lost = stop`, the default).
    case stop
    /// Capture goes on from the server's default source, in the same recording; the gap is
    /// counted as an overrun with its frames and reported as an `InputSwitch`
    /// (`on_source_lost = default`).
    case continueFromDefault = "default"
}

/// What one `CaptureSource.read` produced.
public struct CaptureRead: Sendable, Equatable {
    /// Frames written into the buffer.
    public var frames: Int
    /// Overruns recovered during this read (ALSA `-EPIPE`).
    public var overruns: Int
    /// Frames known to be lost to those overruns (estimated from the xrun's duration).
    public var lostFrames: Int
    /// The source has no more audio.
    public var endOfStream: Bool

    public init(frames: Int, overruns: Int = 0, lostFrames: Int = 0, endOfStream: Bool = false) {
        self.frames = frames
        self.overruns = overruns
        self.lostFrames = lostFrames
        self.endOfStream = endOfStream
    }
}

/// Why capture stopped.
public struct CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The device disappeared (`-ENODEV`, `-ENOTTY`): unplugged.
        case disconnected
        /// An I/O error from the device (`-EIO`) or another unrecoverable code.
        case io
        /// A file source could not be read.
        case file
    }

    public var kind: Kind
    /// The person-readable reason, including the library's own text.
    public var message: String
    /// The typed failure underneath (ALSA's code, libsndfile's kind).
    public var cause: ErrorCause?

    public init(_ kind: Kind, _ message: String, cause: ErrorCause? = nil) {
        self.kind = kind
        self.message = message
        self.cause = cause
    }

    public var description: String { message }
}
