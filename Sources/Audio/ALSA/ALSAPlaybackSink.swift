import CALSA
import Glibc
import SoundFiles

/// Plays interleaved frames to an ALSA device: the minimal counterpart of
/// `ALSACaptureSource`, for playing memos back.
///
/// `write` is aplay.c's `pcm_write`: it keeps writing until every frame is queued,
/// waiting when the device is full, recovering underruns (`-EPIPE`, counted in
/// `underruns`) and suspends, and throws on anything else.
///
/// Thread safety: `@unchecked Sendable` like `ALSAPCM`: created on one thread,
/// then used by a single playback thread.
public final class ALSAPlaybackSink: @unchecked Sendable {
    /// The negotiated format `write` expects.
    public let format: StreamFormat
    /// What the device agreed to.
    public let setup: ALSAStreamSetup
    /// "alsa:NAME".
    public let name: String
    /// Underruns recovered so far.
    public private(set) var underruns = 0

    private let pcm: ALSAPCM

    /// Opens and configures a playback device.
    ///
    /// - Parameters:
    ///   - device: An ALSA PCM name, as for `aplay -D`.
    ///   - format: The format of the frames that will be written.
    ///   - configFile: An extra ALSA configuration file, loaded for this PCM only.
    /// - Throws: `ALSAError` when the device cannot be opened or cannot take `format`.
    public convenience init(device: String, format: StreamFormat, configFile: String? = nil) throws(ALSAError) {
        let pcm = try ALSAPCM(device: device, stream: .playback, configFile: configFile)
        try self.init(pcm: pcm, format: format)
    }

    init(pcm: ALSAPCM, format: StreamFormat) throws(ALSAError) {
        self.pcm = pcm
        let setup = try pcm.configure(format)
        self.setup = setup
        self.format = setup.format
        self.name = "alsa:\(pcm.device)"
    }

    deinit {
        pcm.close()
    }

    /// Queues all `frames` interleaved frames, blocking while the device is full.
    ///
    /// - Throws: `ALSAError` when playback cannot continue (device gone, I/O error).
    public func write(from buffer: UnsafeRawPointer, frames: Int) throws(ALSAError) {
        var remaining = frames
        var position = buffer
        while remaining > 0 {
            let result: Int
            do {
                result = try pcm.writeInterleaved(from: position, frames: remaining)
            } catch let error where error == .wouldBlock {
                _ = pcm.waitCode(milliseconds: 100)
                continue
            } catch let error where error == .interrupted {
                continue
            } catch let error where error == .brokenPipe {
                underruns += 1
                try pcm.prepare()
                continue
            } catch let error where error == .suspended {
                try resumeAfterSuspend()
                continue
            }
            if result == 0 {
                _ = pcm.waitCode(milliseconds: 100)
            }
            remaining -= result
            position += result * format.bytesPerFrame
        }
    }

    /// Waits until everything queued has been played, then stops.
    public func drain() throws(ALSAError) {
        try pcm.drain()
    }

    /// Stops and releases the device. Safe to call more than once.
    public func close() {
        pcm.close()
    }

    private func resumeAfterSuspend() throws(ALSAError) {
        if pcm.resumeAfterSuspendCode() < 0 {
            try pcm.prepare()
        }
    }
}
