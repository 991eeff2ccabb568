import SoundFiles
import Synchronization

/// An open playback device: an ALSA PCM and the write loop over it, or a sound server's
/// playback stream (`pulse:NAME`), owned by one thread at a time.
///
/// The player opens it on the caller's thread (so a missing device is an error from
/// `prepareToPlay()`), then hands it to the playback thread, which alone uses it until
/// it closes it. Its stored properties are constants of Sendable types, so the compiler
/// checks its `Sendable`; the promise of one thread at a time is `ALSAPCM`'s and
/// `PulsePlaybackStream`'s.
final class PlaybackOutput: Sendable {
    /// What the device plays; the format the thread decodes into.
    let format: StreamFormat
    /// Frames the device holds at most once playing.
    let bufferFrames: Int
    private let backend: Backend
    /// Frames written since the device was last made ready (opened, `discardQueued`): all
    /// still queued while it has not started.
    private let writtenSincePrepare = Atomic<Int>(0)

    private enum Backend: Sendable {
        case alsa(ALSAPCM, ALSAPlaybackSink)
        case pulse(PulsePlaybackStream)
    }

    /// The prefix of a `--device` that names a sink of the sound server.
    static let serverPrefix = "pulse:"

    /// Opens `device` for `format`: `pulse:NAME` a sink of the sound server at `server` (nil:
    /// libpulse's own choice), which converts;
    /// anything else an ALSA device, trying the other sample formats when it refuses
    /// `format.sampleFormat` (a device without `plug` may take only integers).
    ///
    /// - Throws: `PlayerError` of kind `.device` with ALSA's or the server's reason; a device
    ///   that cannot play the file's rate or channel count says what it offers.
    static func open(
        device: String, format: StreamFormat, configFile: String?, operations: (any PCMOperations)?, server: String? = nil
    ) throws(PlayerError) -> PlaybackOutput {
        if device.hasPrefix(serverPrefix) {
            do {
                let stream = try PulsePlaybackStream(sink: String(device.dropFirst(serverPrefix.count)), format: format, server: server)
                return PlaybackOutput(backend: .pulse(stream), format: format, bufferFrames: stream.targetFrames)
            } catch {
                throw PlayerError(.device, error.description, cause: .pulse(error))
            }
        }
        let candidates = [format.sampleFormat] + SampleFormat.allCases.filter { $0 != format.sampleFormat }
        var firstError: ALSAError?
        for sampleFormat in candidates {
            var wanted = format
            wanted.sampleFormat = sampleFormat
            do {
                let output = try PlaybackOutput(device: device, format: wanted, configFile: configFile, operations: operations)
                let agreed = output.format
                guard agreed.sampleRate == format.sampleRate, agreed.channels == format.channels else {
                    output.close()
                    throw PlayerError(
                        .device,
                        "playback device \"\(device)\" plays \(agreed.sampleRate) Hz, \(agreed.channels) ch, not the file's \(format.sampleRate) Hz, \(format.channels) ch; use a device that converts, such as \"default\" or a plug device")
                }
                return output
            } catch let error as ALSAError {
                firstError = firstError ?? error
                // Only a refused sample format is worth another try; anything else
                // (no such device, busy) would fail the same way again.
                if error.function != "snd_pcm_hw_params_set_format" { break }
            } catch let error as PlayerError {
                throw error
            } catch {
                break
            }
        }
        throw PlayerError(
            .device, firstError?.description ?? "cannot open playback device \"\(device)\"", cause: firstError.map { .alsa($0) })
    }

    private init(backend: Backend, format: StreamFormat, bufferFrames: Int) {
        self.backend = backend
        self.format = format
        self.bufferFrames = bufferFrames
    }

    private convenience init(device: String, format: StreamFormat, configFile: String?, operations: (any PCMOperations)?) throws(ALSAError) {
        let pcm: ALSAPCM
        if let operations {
            pcm = try ALSAPCM(device: device, stream: .playback, configFile: configFile, operations: operations)
        } else {
            pcm = try ALSAPCM(device: device, stream: .playback, configFile: configFile)
        }
        let sink = try ALSAPlaybackSink(pcm: pcm, format: format)
        self.init(backend: .alsa(pcm, sink), format: sink.setup.format, bufferFrames: sink.setup.bufferFrames)
    }

    deinit {
        close()
    }

    /// Queues all `frames`, waiting while the device is full, unless `stopRequested` says to
    /// stop first; recovers underruns.
    ///
    /// - Returns: The frames queued (fewer only when a stop was requested).
    func write(from buffer: UnsafeRawPointer, frames: Int, stopRequested: () -> Bool) throws(PlayerError) -> Int {
        let written: Int
        switch backend {
        case .alsa(_, let sink):
            do { written = try sink.write(from: buffer, frames: frames, stopRequested: stopRequested) } catch { throw Self.failure(error) }
        case .pulse(let stream):
            do { written = try stream.write(from: buffer, frames: frames, stopRequested: stopRequested) } catch { throw Self.failure(error) }
        }
        writtenSincePrepare.add(written, ordering: .relaxed)
        return written
    }

    /// Underruns recovered so far.
    var underruns: Int {
        switch backend {
        case .alsa(_, let sink): sink.underruns
        case .pulse(let stream): stream.underruns
        }
    }

    /// Frames written but not yet heard (`snd_pcm_delay`, the server's latency).
    ///
    /// When the device cannot tell: a prepared device has played nothing yet, so everything
    /// written since it was made ready is queued (the pulse plugin answers EIO while its
    /// stream connects, after every start and seek); after an underrun nothing is.
    /// Allocation-free (the raw seam call, no error value), for the playback loop.
    func queuedFrames() -> Int {
        switch backend {
        case .pulse(let stream):
            return stream.queuedFrames()
        case .alsa(let pcm, _):
            guard let handle = pcm.openHandle else { return 0 }
            var frames = 0
            if pcm.operations.delay(handle, &frames) >= 0 { return max(0, frames) }
            guard pcm.state == .prepared else { return 0 }
            return min(writtenSincePrepare.load(ordering: .relaxed), bufferFrames)
        }
    }

    /// Discards what is queued and makes the device ready for new frames (seek, pause).
    func discardQueued() throws(PlayerError) {
        switch backend {
        case .alsa(let pcm, _):
            do {
                try pcm.drop()
                try pcm.prepare()
            } catch {
                throw Self.failure(error)
            }
        case .pulse(let stream):
            do { try stream.discardQueued() } catch { throw Self.failure(error) }
        }
        writtenSincePrepare.store(0, ordering: .relaxed)
    }

    /// Plays out everything queued, then stops: the tail of the file is not cut, unless
    /// `stopRequested` says to stop first.
    ///
    /// - Returns: Whether it drained.
    func drain(stopRequested: () -> Bool) throws(PlayerError) -> Bool {
        switch backend {
        case .alsa(_, let sink):
            do { return try sink.drain(stopRequested: stopRequested) } catch { throw Self.failure(error) }
        case .pulse(let stream):
            do { return try stream.drain(stopRequested: stopRequested) } catch { throw Self.failure(error) }
        }
    }

    /// Releases the device. Idempotent.
    func close() {
        switch backend {
        case .alsa(_, let sink): sink.close()
        case .pulse(let stream): stream.close()
        }
    }

    private static func failure(_ error: ALSAError) -> PlayerError {
        PlayerError(.device, error.description, cause: .alsa(error))
    }

    private static func failure(_ error: PulseError) -> PlayerError {
        PlayerError(.device, error.description, cause: .pulse(error))
    }
}
