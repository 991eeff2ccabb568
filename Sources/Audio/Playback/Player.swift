import Platform
import Dispatch
import Glibc
import Metering
import SoundFiles
import Synchronization

/// Plays a sound file through ALSA: the Linux counterpart of AVAudioPlayer.
///
/// `Player(url:)` opens and checks the file; `prepareToPlay()` opens the device, so
/// that `play()` starts at once (and a missing device is an error there, not later).
/// A playback thread of its own decodes the file with libsndfile, meters what it
/// plays and writes it to the device, which converts (ALSA `plug`, e.g. `default`, or a
/// sink of the sound server, `pulse:NAME`).
/// At the end it drains the device, so the tail is heard, then sends
/// `didFinishPlaying(successfully: true)`.
///
/// Positions are frames: `currentTime = 1.0` on a 48 kHz file makes frame 48 000 the
/// next one played, exactly. `pause()` drops what the device still holds and reads it
/// again on resume, so nothing is repeated or skipped. `stop()` releases the device
/// and keeps the position (like AVAudioPlayer); reaching the end puts it back to 0.
///
/// Every method is safe from any thread; events arrive on the queue given at creation.
public final class Player: Sendable {
    /// The file being played.
    public let url: String
    /// The playback device: `pulse:NAME` (a sink of the sound server), or an ALSA device as
    /// for `aplay -D`.
    public let device: String
    /// What the file holds (length, rate, channels, format).
    public let fileInfo: SoundFileInfo

    private let loop: PlaybackLoop
    private let configFile: String?
    private let operations: (any PCMOperations)?
    /// The sound server's address for a `pulse:` device; nil: libpulse's own choice.
    private let server: String?
    /// Serialises play/pause/stop/prepare, so that starting and joining never race.
    private let lifecycle = Mutex(())
    private let prepared = Mutex<PlaybackOutput?>(nil)
    private let thread = Mutex<JoinableThread?>(nil)

    /// Opens `url` and checks that it can be played; opens no device yet.
    ///
    /// - Parameters:
    ///   - url: a sound file in any format libsndfile reads (every format VoiceMemo writes).
    ///   - device: the playback device: `pulse:NAME`, or an ALSA device (`default` unless told
    ///     otherwise).
    ///   - configFile: an extra ALSA configuration file defining devices, loaded for
    ///     this player's device only (tests), instead of `ALSA_CONFIG_PATH`.
    ///   - eventQueue: where `events` are delivered.
    ///   - events: what to call when playback ends or fails.
    /// - Throws: `PlayerError` of kind `.file` naming the file and the cause: missing,
    ///   unreadable, a directory, empty, not audio, damaged (e.g. cut inside its header),
    ///   an encoding libsndfile cannot decode, no audio in it, or too many channels.
    ///   - adjustable: decode to float and run speed, pitch, volume and skip silence
    ///     (`adjustments`, changeable while playing); otherwise the file plays bit-exact and
    ///     `adjustments` cannot be set.
    public convenience init(
        url: String, device: String = "default", configFile: String? = nil, adjustable: Bool = false,
        eventQueue: DispatchQueue = .main, events: PlayerEvents = .init()
    ) throws(PlayerError) {
        try self.init(
            url: url, device: device, configFile: configFile, adjustable: adjustable, eventQueue: eventQueue,
            events: events, operations: nil)
    }

    /// The designated initializer; `server` is the sound server's address for a `pulse:` device
    /// (tests; nil: libpulse's own choice).
    package init(
        url: String, device: String, configFile: String?, adjustable: Bool = false, eventQueue: DispatchQueue,
        events: PlayerEvents, operations: (any PCMOperations)?, server: String? = nil
    ) throws(PlayerError) {
        let reader: SoundFileReader
        do {
            reader = try SoundFileReader(path: url)
        } catch {
            throw PlayerError(.file, error.description)
        }
        let info = reader.info
        guard info.frames > 0 else {
            reader.close()
            throw PlayerError(.file, "\(url) holds no audio (0 frames): nothing to play")
        }
        guard info.sampleRate > 0, (1...LevelMeter.maximumChannelCount).contains(info.channels) else {
            reader.close()
            throw PlayerError(
                .file,
                "cannot play \(url): it has \(info.channels) channels at \(info.sampleRate) Hz; playback handles 1–\(LevelMeter.maximumChannelCount) channels")
        }
        self.url = url
        self.device = device
        self.fileInfo = info
        self.configFile = configFile
        self.operations = operations
        self.server = server
        if adjustable {
            do {
                _ = try TimeStretcher(channels: info.channels, sampleRate: info.sampleRate)
            } catch {
                reader.close()
                throw PlayerError(.file, "cannot change the speed or pitch of \(url): \(error)")
            }
        }
        let format = StreamFormat(
            sampleRate: info.sampleRate, channels: info.channels,
            sampleFormat: adjustable ? .float32 : Self.decodingFormat(for: info.encoding))
        loop = PlaybackLoop(
            reader: reader, fileFormat: format, isAdjustable: adjustable, eventQueue: eventQueue, events: events)
    }

    deinit {
        stop()
    }

    /// The sample format a file is decoded into: its own depth, so PCM plays bit-exact.
    ///
    /// Lossy and companded encodings decode as int16, libsndfile's `sf_readf_short`:
    /// what a 16-bit device plays anyway, and what `sndfile` tools show.
    static func decodingFormat(for encoding: Encoding?) -> SampleFormat {
        switch encoding {
        case .pcm24, .pcm32, .alac24: .int32
        case .float: .float32
        case .pcm16, .alac16, .ulaw, .alaw, .imaAdpcm, .vorbis, .opus, .mp3, .aac, nil: .int16
        }
    }

    // MARK: Transport

    /// Opens the device so that `play()` starts at once. Calling it again, or while
    /// playing, does nothing.
    ///
    /// - Throws: `PlayerError` of kind `.device` with ALSA's reason (no such device,
    ///   busy, cannot take the file's rate or channels).
    public func prepareToPlay() throws(PlayerError) {
        try lifecycle.withLock { _ throws(PlayerError) in try prepareLocked() }
    }

    /// Starts playing from `currentTime`, or resumes after `pause()`. Prepares first if needed.
    ///
    /// - Throws: `PlayerError` of kind `.device` when the device cannot be opened.
    public func play() throws(PlayerError) {
        try lifecycle.withLock { _ throws(PlayerError) in
            let resumed = loop.control.withLock { control -> Bool in
                guard control.isRunning else { return false }
                control.request = .play
                return true
            }
            if resumed {
                loop.wakeup.signal()
                return
            }
            joinFinishedThread()
            try prepareLocked()
            guard let output = prepared.withLock({ value -> PlaybackOutput? in
                defer { value = nil }
                return value
            }) else { return }
            loop.control.withLock { control in
                control.request = .play
                control.isRunning = true
                control.underruns = 0
                control.skippedFrames = 0
                control.clippedSamples = 0
                control.error = nil
                control.pendingSeek = nil
            }
            let loop = self.loop
            let started = JoinableThread { loop.run(output: output) }
            thread.withLock { $0 = started }
        }
    }

    /// Pauses: the device is emptied at once and the position kept to the frame.
    /// `play()` resumes. Does nothing unless playing.
    ///
    /// Returns once the playback thread has stopped writing (within one device period,
    /// at most a second), so `currentTime` read afterwards stays put.
    public func pause() {
        lifecycle.withLock { _ in
            let pausing = loop.control.withLock { control -> Bool in
                guard control.isRunning, control.request == .play else { return false }
                control.request = .pause
                control.isPauseSettled = false
                return true
            }
            guard pausing else { return }
            let deadline = ContinuousClock.now + .seconds(1)
            while ContinuousClock.now < deadline,
                loop.control.withLock({ $0.isRunning && !$0.isPauseSettled })
            {
                usleep(1000)
            }
        }
    }

    /// How long `stop()` waits for the playback thread before leaving it to finish alone.
    public static let stopWaitMilliseconds = 400

    /// Stops at once and releases the device; the position stays where it was.
    /// Sends no event. Idempotent; when it returns the device is closed — unless the
    /// playback thread is stuck inside alsa-lib (the pulse plugin starting, draining or
    /// dropping a stream waits for the server without a timeout): after
    /// `stopWaitMilliseconds` it is left to finish alone, and closes the device itself.
    public func stop() {
        lifecycle.withLock { _ in
            loop.control.withLock { control in
                if control.isRunning { control.request = .stop }
            }
            loop.wakeup.signal()
            let deadline = ContinuousClock.now + .milliseconds(Self.stopWaitMilliseconds)
            while ContinuousClock.now < deadline, loop.control.withLock({ $0.isRunning }) {
                usleep(1000)
            }
            if loop.control.withLock({ $0.isRunning }) {
                thread.withLock { value in
                    value?.detach()
                    value = nil
                }
            }
            joinFinishedThread()
            prepared.withLock { value in
                value?.close()
                value = nil
            }
        }
    }

    /// Whether audio is going to the device now (false when paused, stopped or finished).
    public var isPlaying: Bool {
        loop.control.withLock { $0.isRunning && $0.request == .play }
    }

    // MARK: Position

    /// The file's length in seconds.
    public var duration: Double { fileInfo.duration }

    /// The file's length in frames.
    public var frameCount: Int { loop.frameCount }

    /// The file's channel count.
    public var numberOfChannels: Int { fileInfo.channels }

    /// The play head in seconds: what has been heard, not what has been written ahead.
    ///
    /// Setting it seeks (clamped to 0…`duration`, rounded to the nearest frame); while
    /// playing, what the device holds is dropped and playback goes on from there.
    public var currentTime: Double {
        get { Double(currentFrame) / Double(fileInfo.sampleRate) }
        set {
            let frames = newValue.isFinite ? (newValue * Double(fileInfo.sampleRate)).rounded() : 0
            seek(toFrame: Int(min(max(frames, 0), Double(frameCount))))
        }
    }

    /// The play head in frames (see `currentTime`).
    public var currentFrame: Int {
        loop.control.withLock { $0.pendingSeek ?? $0.position }
    }

    /// Seeks to `time` seconds, refusing times outside the file.
    ///
    /// - Throws: `PlayerError` of kind `.seek` for a negative time, one beyond the end,
    ///   or not a number.
    public func seek(to time: Double) throws(PlayerError) {
        guard time.isFinite, time >= 0, time <= duration else {
            throw PlayerError(
                .seek, "cannot seek \(url) to \(time) s: it is \(duration) s long")
        }
        seek(toFrame: min(Int((time * Double(fileInfo.sampleRate)).rounded()), frameCount))
    }

    /// Makes `frame` (0…`frameCount`, clamped) the next frame played.
    public func seek(toFrame frame: Int) {
        let target = min(max(frame, 0), frameCount)
        loop.control.withLock { control in
            control.position = target
            if control.isRunning { control.pendingSeek = target }
        }
        loop.wakeup.signal()
    }

    // MARK: Adjustments

    /// Whether speed, pitch, volume and skip silence can be set (`init(…adjustable: true)`).
    public var isAdjustable: Bool { loop.isAdjustable }

    /// Speed, pitch, volume and skip silence, applied from the next period (20 ms) on.
    public var adjustments: PlaybackAdjustments { loop.control.withLock { $0.adjustments } }

    /// Changes the adjustments.
    ///
    /// - Throws: `PlayerError` of kind `.file` when the player is not adjustable, or a value
    ///   is out of its range (nothing changes then).
    public func setAdjustments(_ adjustments: PlaybackAdjustments) throws(PlayerError) {
        guard loop.isAdjustable || adjustments.isIdentity else {
            throw PlayerError(.file, "this player plays \(url) as it is: speed, pitch and volume need an adjustable player")
        }
        if let problem = adjustments.problem { throw PlayerError(.file, "cannot play \(url) at \(problem)") }
        loop.control.withLock { $0.adjustments = adjustments }
    }

    /// Seconds of pauses skip silence left out since playback started.
    public var skippedSeconds: Double {
        Double(loop.control.withLock { $0.skippedFrames }) / Double(fileInfo.sampleRate)
    }

    /// Samples the volume clamped at full scale since playback started (above 100 %).
    public var clippedSamples: Int { loop.control.withLock { $0.clippedSamples } }

    // MARK: State and statistics

    /// Underruns the device recovered from during the current (or last) play.
    public var underruns: Int { loop.control.withLock { $0.underruns } }

    /// What ended the last play early, if something did.
    public var error: PlayerError? { loop.control.withLock { $0.error } }

    // MARK: Metering

    /// Whether the playback thread feeds the meter (on by default).
    public var isMeteringEnabled: Bool {
        get { loop.meters.withLock { $0.isEnabled } }
        set { loop.meters.withLock { $0.isEnabled = newValue } }
    }

    /// Takes a snapshot of the levels played since the previous call.
    public func updateMeters() {
        loop.meters.withLock { $0.update() }
    }

    /// The RMS level of `channel` in dBFS at the last `updateMeters()`; −160 for silence.
    public func averagePower(forChannel channel: Int) -> Float {
        loop.meters.withLock { $0.averagePower(forChannel: channel) }
    }

    /// The peak level of `channel` in dBFS at the last `updateMeters()`; −160 for silence.
    public func peakPower(forChannel channel: Int) -> Float {
        loop.meters.withLock { $0.peakPower(forChannel: channel) }
    }

    // MARK: Private

    /// Opens the device unless it is open or a thread is playing. Call under `lifecycle`.
    private func prepareLocked() throws(PlayerError) {
        if loop.control.withLock({ $0.isRunning }) || prepared.withLock({ $0 != nil }) { return }
        joinFinishedThread()
        let output = try PlaybackOutput.open(
            device: device, format: loop.fileFormat, configFile: configFile, operations: operations, server: server)
        prepared.withLock { $0 = output }
    }

    /// Joins the playback thread if there is one (it is ending or has ended). Call under `lifecycle`.
    private func joinFinishedThread() {
        let finished = thread.withLock { value -> JoinableThread? in
            defer { value = nil }
            return value
        }
        finished?.join()
    }
}
