import SoundFiles
import Synchronization

/// An open playback device: the PCM and the write loop over it, owned by one thread at a time.
///
/// The player opens it on the caller's thread (so a missing device is an error from
/// `prepareToPlay()`), then hands it to the playback thread, which alone uses it until
/// it closes it. Its stored properties are constants of Sendable types, so the compiler
/// checks its `Sendable`; the promise of one thread at a time is `ALSAPCM`'s.
final class PlaybackOutput: Sendable {
    /// What the device agreed to; `format.sampleFormat` is what the thread decodes into.
    let setup: ALSAStreamSetup
    private let pcm: ALSAPCM
    private let sink: ALSAPlaybackSink
    /// Frames written since the device was last made ready (opened, `discardQueued`): all
    /// still queued while it has not started.
    private let writtenSincePrepare = Atomic<Int>(0)

    /// Opens `device` for `format`, trying the other sample formats when the device
    /// refuses `format.sampleFormat` (a device without `plug` may take only integers).
    ///
    /// - Throws: `PlayerError` of kind `.device` with ALSA's reason; a device that
    ///   cannot play the file's rate or channel count says what it offers.
    static func open(
        device: String, format: StreamFormat, configFile: String?, operations: (any PCMOperations)?
    ) throws(PlayerError) -> PlaybackOutput {
        let candidates = [format.sampleFormat] + SampleFormat.allCases.filter { $0 != format.sampleFormat }
        var firstError: ALSAError?
        for sampleFormat in candidates {
            var wanted = format
            wanted.sampleFormat = sampleFormat
            do {
                let output = try PlaybackOutput(device: device, format: wanted, configFile: configFile, operations: operations)
                let agreed = output.setup.format
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

    private init(device: String, format: StreamFormat, configFile: String?, operations: (any PCMOperations)?) throws(ALSAError) {
        let pcm: ALSAPCM
        if let operations {
            pcm = try ALSAPCM(device: device, stream: .playback, configFile: configFile, operations: operations)
        } else {
            pcm = try ALSAPCM(device: device, stream: .playback, configFile: configFile)
        }
        let sink = try ALSAPlaybackSink(pcm: pcm, format: format)
        self.pcm = pcm
        self.sink = sink
        self.setup = sink.setup
    }

    deinit {
        close()
    }

    /// Queues all `frames`, waiting while the device is full, unless `stopRequested` says to
    /// stop first; recovers underruns.
    ///
    /// - Returns: The frames queued (fewer only when a stop was requested).
    func write(from buffer: UnsafeRawPointer, frames: Int, stopRequested: () -> Bool) throws(ALSAError) -> Int {
        let written = try sink.write(from: buffer, frames: frames, stopRequested: stopRequested)
        writtenSincePrepare.add(written, ordering: .relaxed)
        return written
    }

    /// Underruns recovered so far.
    var underruns: Int { sink.underruns }

    /// Frames written but not yet heard (`snd_pcm_delay`).
    ///
    /// When the device cannot tell: a prepared device has played nothing yet, so everything
    /// written since it was made ready is queued (the pulse plugin answers EIO while its
    /// stream connects, after every start and seek); after an underrun nothing is.
    /// Allocation-free (the raw seam call, no error value), for the playback loop.
    func queuedFrames() -> Int {
        guard let handle = pcm.openHandle else { return 0 }
        var frames = 0
        if pcm.operations.delay(handle, &frames) >= 0 { return max(0, frames) }
        guard pcm.state == .prepared else { return 0 }
        return min(writtenSincePrepare.load(ordering: .relaxed), setup.bufferFrames)
    }

    /// Discards what is queued and makes the device ready for new frames (seek, pause).
    func discardQueued() throws(ALSAError) {
        try pcm.drop()
        try pcm.prepare()
        writtenSincePrepare.store(0, ordering: .relaxed)
    }

    /// Plays out everything queued, then stops: the tail of the file is not cut, unless
    /// `stopRequested` says to stop first.
    ///
    /// - Returns: Whether it drained.
    func drain(stopRequested: () -> Bool) throws(ALSAError) -> Bool {
        try sink.drain(stopRequested: stopRequested)
    }

    /// Releases the device. Idempotent.
    func close() {
        sink.close()
    }
}
