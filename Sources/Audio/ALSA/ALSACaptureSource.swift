import CALSA
import Glibc
import Vocabulary
import SoundFiles

/// Captures from an ALSA device: the `CaptureSource` behind `--source alsa:NAME`.
///
/// The read loop is aplay.c's, on a non-blocking PCM: a short read is returned as it is;
/// `-EAGAIN` waits for the device, at most `waitMilliseconds`, and a wait that times out
/// returns no frames, so the capture thread gets back to its stop flag at least every
/// 100 ms whatever the device does (a stalled sound server never delivers); an overrun (`-EPIPE`) is counted, measured (how long the stream
/// stood still, in frames) and recovered with `snd_pcm_prepare`; a suspend
/// (`-ESTRPIPE`) is resumed, or prepared when resuming is not possible; a vanished
/// device (`-ENODEV`, `-ENOTTY`) ends capture as `.disconnected`, anything else
/// as `.io`. The loop neither allocates nor logs except when it throws.
///
/// Thread safety: created on one thread and then used by the capture thread alone, as the
/// `CaptureSource` contract requires. Its stored properties are constants of Sendable types,
/// so its `Sendable` is the compiler's; the one-thread-at-a-time promise is `ALSAPCM`'s.
public final class ALSACaptureSource: CaptureSource, Sendable {
    /// The negotiated format `read` delivers.
    public let format: StreamFormat
    /// The format that was asked for (the rate may differ on devices without `plug`).
    public let requestedFormat: StreamFormat
    /// What the device agreed to, including period and buffer sizes.
    public let setup: ALSAStreamSetup
    /// "alsa:NAME".
    public let name: String

    private let pcm: ALSAPCM

    /// Whether a sound server stands behind the device (`ALSAPCM.isExternalPlugin`): its
    /// volume and mute are the desktop's, not a card's mixer.
    public var isSoundServer: Bool { pcm.isExternalPlugin }

    /// Opens and configures a capture device.
    ///
    /// - Parameters:
    ///   - device: An ALSA PCM name, as for `arecord -D`.
    ///   - format: The format to deliver; `plug`-based devices convert to it.
    ///   - configFile: An extra ALSA configuration file defining devices, loaded
    ///     for this PCM only.
    /// - Throws: `ALSAError` when the device cannot be opened or cannot provide `format`.
    public convenience init(device: String, format: StreamFormat, configFile: String? = nil) throws(ALSAError) {
        let pcm = try ALSAPCM(device: device, stream: .capture, configFile: configFile)
        try self.init(pcm: pcm, format: format)
    }

    init(pcm: ALSAPCM, format: StreamFormat) throws(ALSAError) {
        self.pcm = pcm
        self.requestedFormat = format
        let setup = try pcm.configure(format)
        try pcm.useNonblockingIO()
        self.setup = setup
        self.format = setup.format
        self.name = InputName.alsa(device: pcm.device).description
    }

    /// The longest a `read` waits for the device before returning with no frames.
    static let waitMilliseconds: Int32 = 100

    deinit {
        pcm.close()
    }

    public func read(into buffer: UnsafeMutableRawPointer, frames: Int) throws(CaptureError) -> CaptureRead {
        var result = CaptureRead(frames: 0)
        guard frames > 0 else { return result }
        // A period at a time from a device that runs in real time; everything that is
        // waiting (up to `frames`) when the reader has fallen behind or the device is not
        // paced (a file), so the per-read cost is paid once per period, not per 20 ms.
        let wanted = min(frames, max(setup.periodFrames, pcm.availableFrames()))
        while true {
            let count = pcm.readFrames(into: buffer, frames: wanted)
            if count > 0 {
                result.frames = count
                return result
            }
            let code = Int32(clamping: count)
            switch code {
            case 0, -EAGAIN:
                // A wait that fails for a reason the next read will not report
                // again (the device is gone) ends capture here instead of spinning.
                let waited = pcm.waitCode(milliseconds: Self.waitMilliseconds)
                if waited == 0 { return result }
                if waited < 0, waited != -EINTR, waited != -EPIPE, waited != -ESTRPIPE {
                    throw failure(waited, function: "snd_pcm_wait")
                }
            case -EINTR:
                continue
            case -EPIPE:
                result.overruns += 1
                result.lostFrames += pcm.overrunLostFrames()
                try prepareAfter(code)
            case -ESTRPIPE:
                try resumeAfterSuspend()
            default:
                throw failure(code, function: "snd_pcm_readi")
            }
        }
    }

    /// Releases the device. Safe to call more than once.
    ///
    /// Call it from the capture thread, or once that thread has stopped reading:
    /// an alsa-lib handle must not be closed under a `read`. A read returns within
    /// `waitMilliseconds` even from a device that delivers nothing, so a stop flag
    /// checked between reads ends capture promptly. Waits at most
    /// `ALSAPCM.closeWaitMilliseconds` for the device to close, then leaves it closing in
    /// the background.
    public func close() {
        pcm.close()
    }

    /// Like aplay's `suspend()`: resume while the device says "not yet", prepare
    /// when resuming is not possible.
    private func resumeAfterSuspend() throws(CaptureError) {
        let code = pcm.resumeAfterSuspendCode()
        if code < 0 {
            try prepareAfter(code)
        }
    }

    private func prepareAfter(_ code: Int32) throws(CaptureError) {
        let prepared = pcm.prepareCode()
        if prepared < 0 {
            throw failure(prepared, function: "snd_pcm_prepare")
        }
    }

    /// The words a person reads when capture stops.
    private func failure(_ code: Int32, function: String) -> CaptureError {
        let error = pcm.makeError(code, function: function)
        if error.isDisconnection {
            let suffix = error.alsaMessage.isEmpty ? "" : " (ALSA: \(error.alsaMessage))"
            return CaptureError(.disconnected, "the input device \"\(pcm.device)\" was disconnected\(suffix)")
        }
        return CaptureError(.io, error.description, cause: .alsa(error))
    }
}
