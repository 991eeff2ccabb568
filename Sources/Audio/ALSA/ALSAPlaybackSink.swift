import CALSA
import Glibc
import Vocabulary
import SoundFiles
import Synchronization

/// Plays interleaved frames to an ALSA device: the minimal counterpart of
/// `ALSACaptureSource`, for playing memos back.
///
/// `write` is aplay.c's `pcm_write` on a non-blocking PCM: it keeps writing until every
/// frame is queued, waiting (at most 100 ms at a time) when the device is full, recovering
/// underruns (`-EPIPE`, counted in `underruns`) and suspends, and throws on anything else.
/// Between waits it asks the caller whether to stop, so a device that stops consuming (a
/// stalled sound server) cannot hold the playback thread past a stop request; `drain`
/// waits the same way.
///
/// Thread safety: created on one thread, then used by a single playback thread (the promise
/// is `ALSAPCM`'s); the underrun count, read from other threads, is atomic, so the compiler
/// checks its `Sendable`.
public final class ALSAPlaybackSink: Sendable {
    /// The negotiated format `write` expects.
    public let format: StreamFormat
    /// What the device agreed to.
    public let setup: ALSAStreamSetup
    /// "alsa:NAME".
    public let name: String
    /// Underruns recovered so far.
    public var underruns: Int { underrunCount.load(ordering: .relaxed) }
    private let underrunCount = Atomic<Int>(0)

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
        try pcm.useNonblockingIO()
        self.setup = setup
        self.format = setup.format
        self.name = InputName.alsa(device: pcm.device).description
    }

    deinit {
        pcm.close()
    }

    /// Queues all `frames` interleaved frames, waiting while the device is full, unless
    /// `stopRequested` says to stop first.
    ///
    /// - Parameter stopRequested: asked after each wait for the device; `true` ends the
    ///   write at once with what was queued so far.
    /// - Returns: The frames queued: all of them unless a stop was requested.
    /// - Throws: `ALSAError` when playback cannot continue (device gone, I/O error).
    @discardableResult
    public func write(
        from buffer: UnsafeRawPointer, frames: Int, stopRequested: () -> Bool = { false }
    ) throws(ALSAError) -> Int {
        var remaining = frames
        var position = buffer
        while remaining > 0 {
            let result: Int
            do {
                result = try pcm.writeInterleaved(from: position, frames: remaining)
            } catch let error where error == .wouldBlock {
                _ = pcm.waitCode(milliseconds: Self.waitMilliseconds)
                if stopRequested() { break }
                continue
            } catch let error where error == .interrupted {
                continue
            } catch let error where error == .brokenPipe {
                underrunCount.add(1, ordering: .relaxed)
                try pcm.prepare()
                continue
            } catch let error where error == .suspended {
                try resumeAfterSuspend()
                continue
            }
            if result == 0 {
                _ = pcm.waitCode(milliseconds: Self.waitMilliseconds)
                if stopRequested() { break }
            }
            remaining -= result
            position += result * format.bytesPerFrame
        }
        return frames - remaining
    }

    /// The longest one wait for the device lasts before `stopRequested` is asked again.
    static let waitMilliseconds: Int32 = 100

    /// Waits until everything queued has been played, then stops, unless `stopRequested`
    /// says to stop first (then what is queued is left to `close`).
    ///
    /// The device must first take everything queued (its free space reaches the whole
    /// buffer), waited for here 100 ms at a time; only then `snd_pcm_drain`, which the pulse
    /// plugin carries out by waiting for the server without a timeout.
    ///
    /// - Returns: Whether it drained (`false`: a stop was requested).
    @discardableResult
    public func drain(stopRequested: () -> Bool = { false }) throws(ALSAError) -> Bool {
        while true {
            let available = pcm.availableFrames()
            // Only a running stream consumes; a prepared one is started by the drain itself.
            if available < 0 || available >= setup.bufferFrames || pcm.state != .running { break }
            _ = pcm.waitCode(milliseconds: Self.waitMilliseconds)
            if stopRequested() { return false }
        }
        do {
            try pcm.drain()
        } catch let error where error == .wouldBlock {
            // A non-blocking drain (hw devices) returns at once; the state says when it is over.
            while pcm.state == .draining {
                _ = pcm.waitCode(milliseconds: Self.waitMilliseconds)
                if stopRequested() { return false }
            }
        }
        return true
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
