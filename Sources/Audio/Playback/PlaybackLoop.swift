import Dispatch
import SoundFiles
import Synchronization

/// What the owner asks of the playback thread and what the thread reports back,
/// under one lock.
struct PlaybackControl {
    enum Request { case play, pause, stop }

    /// What the owner wants now.
    var request: Request = .stop
    /// A seek the thread has not carried out yet.
    var pendingSeek: Int?
    /// The play head: frames heard (written minus still queued in the device), or
    /// where the next `play()` starts.
    var position = 0
    /// Underruns the device recovered from during the current run.
    var underruns = 0
    /// Whether a playback thread is running.
    var isRunning = false
    /// What ended the last run early.
    var error: PlayerError?
    /// Whether the thread has carried out the latest pause: the device is emptied and
    /// `position` is the frame playback resumes from.
    var isPauseSettled = false
    /// Speed, pitch, volume, skip silence (an adjustable player only); read once a period.
    var adjustments = PlaybackAdjustments()
    /// Frames of pauses skip silence did not play, since playback started.
    var skippedFrames = 0
    /// Samples the volume clamped at full scale, since playback started.
    var clippedSamples = 0
}

/// The part of a player the playback thread uses: the file, the shared control
/// state, the meter and the event delivery. The thread holds this, not the `Player`,
/// so that dropping the player always stops and joins from the owner's side.
final class PlaybackLoop: Sendable {
    let url: String
    /// The file's rate and channels, and the sample format it is decoded into by default.
    let fileFormat: StreamFormat
    /// Frames in the file.
    let frameCount: Int
    let control = Mutex(PlaybackControl())
    let meters: Mutex<PlaybackMeters>
    /// Wakes a paused thread when the owner resumes, seeks or stops.
    let wakeup = DispatchSemaphore(value: 0)

    private let reader: SoundFileReader
    private let eventQueue: DispatchQueue
    private let events: PlayerEvents

    private enum Command {
        case play, pause, stop
        case seek(Int)
    }

    private enum Outcome {
        case stopped, finished
        case failed(PlayerError)
    }

    /// Whether audio goes through `PlaybackProcessing` (decoded as float): speed, pitch, volume
    /// and skip silence can change while it plays. Otherwise the file plays bit-exact.
    let isAdjustable: Bool

    init(
        reader: SoundFileReader, fileFormat: StreamFormat, isAdjustable: Bool = false, eventQueue: DispatchQueue,
        events: PlayerEvents
    ) {
        self.isAdjustable = isAdjustable
        self.url = reader.path
        self.reader = reader
        self.fileFormat = fileFormat
        self.frameCount = Int(reader.info.frames)
        self.meters = Mutex(PlaybackMeters(channels: fileFormat.channels))
        self.eventQueue = eventQueue
        self.events = events
    }

    /// The playback thread's body: plays from `control.position` until the end, a
    /// stop request or an error, then closes `output` and delivers the events.
    ///
    /// The loop allocates nothing and logs nothing: one buffer is allocated before it,
    /// errors become state after it.
    func run(output: PlaybackOutput) {
        let format = output.format
        let chunkFrames = max(256, format.sampleRate / 50)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkFrames * format.bytesPerFrame, alignment: 64)
        defer { buffer.deallocate() }
        let outcome: Outcome
        if isAdjustable {
            outcome = playAdjusted(output: output, chunkFrames: chunkFrames, format: format)
        } else {
            outcome = play(output: output, buffer: buffer, chunkFrames: chunkFrames, format: format)
        }
        output.close()
        var failure: PlayerError?
        if case .failed(let error) = outcome { failure = error }
        control.withLock { control in
            control.isRunning = false
            control.request = .stop
            control.error = failure
            if case .finished = outcome, control.pendingSeek == nil { control.position = 0 }
            control.pendingSeek = nil
        }
        deliver(outcome)
    }

    private func play(
        output: PlaybackOutput, buffer: UnsafeMutableRawPointer, chunkFrames: Int, format: StreamFormat
    ) -> Outcome {
        var next = control.withLock { $0.position }
        // Whether the device holds nothing of ours (after a pause), so a second pass
        // through the pause branch does not reposition again.
        var isIdle = true
        do {
            try reader.seek(toFrame: Int64(next))
            while true {
                switch nextCommand() {
                case .stop:
                    return .stopped
                case .seek(let frame):
                    try output.discardQueued()
                    try reader.seek(toFrame: Int64(frame))
                    next = frame
                    isIdle = true
                case .pause:
                    if !isIdle {
                        // Drop what the device still holds and read it again on resume:
                        // nothing is heard twice and nothing is skipped.
                        let heard = next - output.queuedFrames()
                        try output.discardQueued()
                        if heard != next { try reader.seek(toFrame: Int64(heard)) }
                        next = heard
                        control.withLock { if $0.pendingSeek == nil { $0.position = heard } }
                        isIdle = true
                    }
                    control.withLock { $0.isPauseSettled = true }
                    _ = wakeup.wait(timeout: .now() + .milliseconds(100))
                case .play:
                    isIdle = false
                    let count = try reader.read(into: buffer, frames: chunkFrames, as: format.sampleFormat)
                    if count == 0 {
                        if next < frameCount { return .failed(truncated(at: next)) }
                        return try output.drain(stopRequested: isStopRequested) ? .finished : .stopped
                    }
                    meters.withLock { $0.consume(buffer, frames: count, format: format) }
                    let written = try output.write(from: buffer, frames: count, stopRequested: isStopRequested)
                    if written < count { return .stopped }
                    next += count
                    let heard = next - output.queuedFrames()
                    let underruns = output.underruns
                    control.withLock { control in
                        if control.pendingSeek == nil { control.position = heard }
                        control.underruns = underruns
                    }
                }
            }
        } catch {
            return failure(error)
        }
    }

    /// The adjustable form of `play`: decodes float, runs `PlaybackProcessing`, converts to the
    /// device's format if it took another. The play head is the frames read less what
    /// SoundTouch holds and what the device holds (at the speed it plays them).
    private func playAdjusted(output: PlaybackOutput, chunkFrames: Int, format: StreamFormat) -> Outcome {
        let channels = fileFormat.channels
        let processing: PlaybackProcessing
        do {
            processing = try PlaybackProcessing(channels: channels, sampleRate: fileFormat.sampleRate, chunkFrames: chunkFrames)
        } catch {
            return .failed(PlayerError(.device, error.description))
        }
        let decoded = UnsafeMutablePointer<Float>.allocate(capacity: chunkFrames * channels)
        defer { decoded.deallocate() }
        let converted = UnsafeMutableRawPointer.allocate(
            byteCount: processing.outputCapacity * channels * 4, alignment: 64)
        defer { converted.deallocate() }
        var next = control.withLock { $0.position }
        var isIdle = true

        /// Writes `frames` processed frames; false when a stop was asked meanwhile.
        func write(_ frames: Int) throws -> Bool {
            guard frames > 0 else { return true }
            meters.withLock { $0.consume(processing.output, frames: frames, format: StreamFormat(sampleRate: format.sampleRate, channels: channels, sampleFormat: .float32)) }
            let bytes = Self.convert(processing.output, samples: frames * channels, to: format.sampleFormat, into: converted)
            return try output.write(from: bytes, frames: frames, stopRequested: isStopRequested) == frames
        }
        func heard() -> Int {
            let queued = Double(output.queuedFrames()) * processing.speed
            return max(0, next - processing.bufferedInputFrames - Int(queued.rounded()))
        }
        do {
            try reader.seek(toFrame: Int64(next))
            while true {
                switch nextCommand() {
                case .stop:
                    return .stopped
                case .seek(let frame):
                    try output.discardQueued()
                    processing.reset()
                    try reader.seek(toFrame: Int64(frame))
                    next = frame
                    isIdle = true
                case .pause:
                    if !isIdle {
                        let position = heard()
                        try output.discardQueued()
                        processing.reset()
                        try reader.seek(toFrame: Int64(position))
                        next = position
                        control.withLock { if $0.pendingSeek == nil { $0.position = position } }
                        isIdle = true
                    }
                    control.withLock { $0.isPauseSettled = true }
                    _ = wakeup.wait(timeout: .now() + .milliseconds(100))
                case .play:
                    isIdle = false
                    let adjustments = control.withLock { $0.adjustments }
                    guard try write(processing.apply(adjustments)) else { return .stopped }
                    let count = try reader.read(into: decoded, frames: chunkFrames, as: .float32)
                    if count == 0 {
                        if next < frameCount { return .failed(truncated(at: next)) }
                        guard try write(processing.process(decoded, frames: 0, flush: true)) else { return .stopped }
                        return try output.drain(stopRequested: isStopRequested) ? .finished : .stopped
                    }
                    let ready = processing.process(decoded, frames: count)
                    next += count
                    guard try write(ready) else { return .stopped }
                    let position = heard()
                    let underruns = output.underruns
                    control.withLock { control in
                        if control.pendingSeek == nil { control.position = min(position, frameCount) }
                        control.underruns = underruns
                        control.skippedFrames = processing.skippedFrames
                        control.clippedSamples = processing.clippedSamples
                    }
                }
            }
        } catch {
            return failure(error)
        }
    }

    /// `samples` floats in the device's sample format: the floats themselves, or converted
    /// into `scratch` (a device that refused float: rounded, clamped to full scale).
    static func convert(
        _ samples: UnsafeMutablePointer<Float>, samples count: Int, to sampleFormat: SampleFormat,
        into scratch: UnsafeMutableRawPointer
    ) -> UnsafeRawPointer {
        switch sampleFormat {
        case .float32:
            return UnsafeRawPointer(samples)
        case .int16:
            let out = scratch.assumingMemoryBound(to: Int16.self)
            for index in 0..<count { out[index] = Int16(max(-32768, min(32767, (samples[index] * 32768).rounded()))) }
            return UnsafeRawPointer(scratch)
        case .int32:
            let out = scratch.assumingMemoryBound(to: Int32.self)
            for index in 0..<count {
                out[index] = Int32(max(-2_147_483_648, min(2_147_483_520, (Double(samples[index]) * 2_147_483_648).rounded())))
            }
            return UnsafeRawPointer(scratch)
        }
    }

    /// How an error ends a run: the file's or the device's, in the player's words.
    private func failure(_ error: any Error) -> Outcome {
        switch error {
        case let error as PlayerError: .failed(error)
        case let error as SoundFileError: .failed(PlayerError(.decode, error.description, cause: .soundFile(error)))
        case let error as ALSAError: .failed(PlayerError(.device, error.description, cause: .alsa(error)))
        default: .failed(PlayerError(.decode, "playing \(url) failed: \(error)"))
        }
    }

    /// Whether the owner asked to stop: the device waits ask it, so a device that stops
    /// consuming cannot keep the thread (and `Player.stop()`, which joins it) waiting.
    private func isStopRequested() -> Bool {
        control.withLock { $0.request == .stop }
    }

    private func nextCommand() -> Command {
        control.withLock { control in
            switch control.request {
            case .stop:
                return .stop
            case .play, .pause:
                if let frame = control.pendingSeek {
                    control.pendingSeek = nil
                    return .seek(frame)
                }
                return control.request == .play ? .play : .pause
            }
        }
    }

    private func truncated(at frame: Int) -> PlayerError {
        PlayerError(
            .decode,
            "\(url) ends at frame \(frame) of the \(frameCount) its header promises: the file is truncated")
    }

    private func deliver(_ outcome: Outcome) {
        let events = self.events
        switch outcome {
        case .stopped:
            return
        case .finished:
            eventQueue.async { events.didFinishPlaying?(true) }
        case .failed(let error):
            eventQueue.async {
                events.decodeErrorDidOccur?(error)
                events.didFinishPlaying?(false)
            }
        }
    }
}
