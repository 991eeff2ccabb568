import Dispatch
import Glibc
import Metering
import SoundFiles
import Synchronization

/// What a recorder tells its owner, delivered on the queue the owner chose.
public struct RecorderEvents: Sendable {
    /// The recording ended: by `stop()`, by reaching its duration or by running out of
    /// input (`true`), or by an error (`false`, after `encodeErrorDidOccur`).
    public var didFinishRecording: (@Sendable (_ successfully: Bool) -> Void)?
    /// Writing or capturing failed; the file keeps everything written before.
    public var encodeErrorDidOccur: (@Sendable (RecorderError) -> Void)?

    public init(
        didFinishRecording: (@Sendable (_ successfully: Bool) -> Void)? = nil,
        encodeErrorDidOccur: (@Sendable (RecorderError) -> Void)? = nil
    ) {
        self.didFinishRecording = didFinishRecording
        self.encodeErrorDidOccur = encodeErrorDidOccur
    }
}

/// Records an input into a sound file: the Linux counterpart of AVAudioRecorder.
///
/// `prepareToRecord()` opens the input and creates the file, so that `record()`
/// starts at once; the meter runs from then on. Audio flows from the source's
/// capture thread through a lock-free ring to a writer thread that feeds
/// libsndfile, so a slow disk never stalls capture. Durations are counted in
/// frames: `record(forDuration: 2)` at 48 kHz writes exactly 96 000 frames, and
/// `currentTime` excludes pauses.
///
/// A recorder made with `measuresStatistics` (a memo's) also measures, on the writer
/// thread, every frame it writes: sample peak, true peak, integrated loudness, loudness
/// range and full-scale samples, by the rules of `voicememo analyze`
/// (`measuredStatistics`). A plain file (`voicememo record --output`) is not measured: the
/// meters cost far more CPU than the recording itself.
public final class Recorder: Sendable {
    /// The file being recorded.
    public let url: String
    /// What the file is recorded as (validated).
    public let settings: RecordingSettings
    /// Where the audio comes from.
    public let input: InputSource
    /// Whether the frames written are measured (`measuredStatistics`).
    public let measuresStatistics: Bool

    private let metadata: SoundFileMetadata
    private let paced: Bool
    /// An engine opened by the owner, which this recorder taps but never starts or stops.
    private let sharedEngine: CaptureEngine?
    private let eventQueue: DispatchQueue
    private let events: RecorderEvents
    private let parts = Mutex<Parts?>(nil)
    private let state = Mutex<Lifecycle>(.created)

    private enum Lifecycle { case created, prepared, stopped }

    /// The engine and writer of a prepared recorder.
    private struct Parts {
        let engine: CaptureEngine
        let sink: RecordingSink
        /// Whether `stop()` stops the engine (it opened it) or only detaches from it.
        let ownsEngine: Bool
    }

    /// Validates everything up front; creates nothing.
    ///
    /// - Parameters:
    ///   - url: the file to write (its extension must agree with the format).
    ///   - settings: format, encoding, rate, channels, quality.
    ///   - input: the capture source.
    ///   - metadata: title, date, comment written into the file's tags where the format has them.
    ///   - paced: generated sources (tone, file) run in real time; tests may turn that off.
    ///   - measuresStatistics: measure what is written, for `measuredStatistics` (a memo's
    ///     figures); off by default, as for a plain file.
    ///   - eventQueue: where `events` are delivered.
    /// - Throws: `RecorderError` of kind `.settings` naming what is wrong and what would work.
    public convenience init(
        url: String,
        settings: RecordingSettings,
        input: InputSource = .alsa(device: "default"),
        metadata: SoundFileMetadata = .init(),
        paced: Bool = true,
        measuresStatistics: Bool = false,
        eventQueue: DispatchQueue = .main,
        events: RecorderEvents = .init()
    ) throws(RecorderError) {
        try input.validate(for: settings)
        try self.init(
            url: url, settings: settings, input: input, sharedEngine: nil, metadata: metadata, paced: paced,
            measuresStatistics: measuresStatistics, eventQueue: eventQueue, events: events)
    }

    /// A recorder that taps an engine its owner already opened and runs: the app keeps
    /// one input open for the meter and records successive memos from it. Preparing
    /// attaches to the engine; `stop()` detaches and finalises the file, and the engine
    /// (and its meter) keeps running.
    ///
    /// - Parameters:
    ///   - url: the file to write (its extension must agree with the format).
    ///   - settings: format, encoding, quality; rate and channels must be the engine's.
    ///   - engine: the open input; its owner starts and stops it.
    ///   - input: what the engine was opened from (for `input`).
    ///   - metadata: title, date, comment written into the file's tags where the format has them.
    ///   - measuresStatistics: measure what is written, for `measuredStatistics` (a memo's
    ///     figures); off by default.
    ///   - eventQueue: where `events` are delivered.
    /// - Throws: `RecorderError` of kind `.settings` when the settings are invalid or
    ///   disagree with the engine's rate or channels.
    public convenience init(
        url: String,
        settings: RecordingSettings,
        engine: CaptureEngine,
        input: InputSource,
        metadata: SoundFileMetadata = .init(),
        measuresStatistics: Bool = false,
        eventQueue: DispatchQueue = .main,
        events: RecorderEvents = .init()
    ) throws(RecorderError) {
        guard engine.format.sampleRate == settings.sampleRate, engine.format.channels == settings.channels else {
            throw RecorderError(.settings, "the open input delivers \(engine.format.sampleRate) Hz, \(engine.format.channels) ch, but the recording asks for \(settings.sampleRate) Hz, \(settings.channels) ch")
        }
        try self.init(
            url: url, settings: settings, input: input, sharedEngine: engine, metadata: metadata, paced: true,
            measuresStatistics: measuresStatistics, eventQueue: eventQueue, events: events)
    }

    private init(
        url: String, settings: RecordingSettings, input: InputSource, sharedEngine: CaptureEngine?,
        metadata: SoundFileMetadata, paced: Bool, measuresStatistics: Bool, eventQueue: DispatchQueue,
        events: RecorderEvents
    ) throws(RecorderError) {
        do {
            try settings.validate(path: url)
        } catch {
            throw RecorderError(.settings, error.message)
        }
        self.url = url
        self.settings = settings
        self.input = input
        self.metadata = metadata
        self.paced = paced
        self.measuresStatistics = measuresStatistics
        self.eventQueue = eventQueue
        self.events = events
        self.sharedEngine = sharedEngine
    }

    deinit {
        stop()
    }

    /// Opens the input and creates the file, so that `record()` starts immediately.
    /// The meter runs from now on. Calling it again does nothing.
    ///
    /// - Throws: `RecorderError` when the input cannot be opened (with the device's
    ///   own reason) or the file cannot be created; nothing is left behind then.
    public func prepareToRecord() throws(RecorderError) {
        try prepare(starting: nil)
    }

    /// When and how long a recording runs, in device frames.
    private struct Start {
        var atFrame: Int?
        var limit: Int?
    }

    /// Prepares if needed, and starts recording if `start` says so. A recorder that is
    /// asked to record before it was prepared is armed before its input starts, so an
    /// input that delivers faster than real time (a file device) loses no frame between
    /// opening and recording.
    private func prepare(starting start: Start?) throws(RecorderError) {
        let lifecycle = state.withLock { $0 }
        switch lifecycle {
        case .prepared:
            if let start { currentParts?.sink.start(atFrame: start.atFrame, limit: start.limit) }
            return
        case .stopped: throw RecorderError(.state, "this recording has already stopped; make a new recorder")
        case .created: break
        }
        if let sharedEngine {
            try prepare(attachingTo: sharedEngine, starting: start)
            return
        }
        let format = StreamFormat(
            sampleRate: settings.sampleRate, channels: settings.channels,
            sampleFormat: settings.preferredSampleFormat)
        let source = try input.open(format: format, paced: paced)
        if source.format != format {
            let offered = source.format
            source.close()
            throw RecorderError(.settings, "\(input) delivers \(offered.sampleRate) Hz, \(offered.channels) ch, but the recording asks for \(format.sampleRate) Hz, \(format.channels) ch; use --rate \(offered.sampleRate) --channels \(offered.channels)")
        }
        let sink: RecordingSink
        do {
            sink = try makeSink(format: source.format)
        } catch {
            source.close()
            throw error
        }
        let engine = CaptureEngine(source: source)
        if let start { sink.start(atFrame: start.atFrame, limit: start.limit) }
        engine.attach(sink)
        // The input is this recording's alone: once the recording takes no more frames, it
        // stops reading (an unpaced source would otherwise be read, converted and metered
        // at full speed while an encoder finishes the file).
        engine.start(endsWhenTapsAreDone: true)
        parts.withLock { $0 = Parts(engine: engine, sink: sink, ownsEngine: true) }
        state.withLock { $0 = .prepared }
    }

    private func prepare(attachingTo engine: CaptureEngine, starting start: Start?) throws(RecorderError) {
        let sink = try makeSink(format: engine.format)
        parts.withLock { $0 = Parts(engine: engine, sink: sink, ownsEngine: false) }
        state.withLock { $0 = .prepared }
        if let start { sink.start(atFrame: start.atFrame, limit: start.limit) }
        engine.attach(sink)
    }

    /// The memo's file and the sink that writes `format` into it, for an engine of the
    /// recorder's own and a shared one alike.
    private func makeSink(format: StreamFormat) throws(RecorderError) -> RecordingSink {
        try RecordingSink.creatingFile(
            at: url, settings: settings, metadata: metadata, format: format,
            measuresStatistics: measuresStatistics, eventQueue: eventQueue, events: events)
    }

    /// Starts recording now, or resumes after `pause()`. Prepares first if needed.
    public func record() throws(RecorderError) {
        try prepare(starting: Start())
    }

    /// Starts recording when the input's clock reaches `time` (seconds of
    /// `deviceCurrentTime`, which counts from when the input opened: 0 if this call
    /// prepares the recorder), exact to the frame.
    public func record(atTime time: Double) throws(RecorderError) {
        try record(atTime: time, forDuration: nil)
    }

    /// Records exactly `duration` seconds (rounded to frames), then stops by itself.
    public func record(forDuration duration: Double) throws(RecorderError) {
        try prepare(starting: Start(limit: try frames(duration, "duration")))
    }

    /// Starts at `time` (device clock) and records `duration` seconds.
    public func record(atTime time: Double, forDuration duration: Double?) throws(RecorderError) {
        let start = try frames(time, "start time")
        let limit = try duration.map { value throws(RecorderError) in try frames(value, "duration") }
        try prepare(starting: Start(atFrame: start, limit: limit))
    }

    /// Pauses: audio keeps flowing to the meter but not to the file.
    public func pause() {
        currentParts?.sink.pause()
    }

    /// Stops recording, finalises the file and closes the input (a shared engine is
    /// only detached from and keeps running). Idempotent.
    ///
    /// When it returns the file is complete on disk; `didFinishRecording` follows
    /// on the event queue.
    public func stop() {
        let taken = parts.withLock { $0 }
        state.withLock { if $0 == .prepared { $0 = .stopped } }
        guard let taken else { return }
        if taken.ownsEngine {
            taken.engine.stop()
        } else {
            taken.engine.detach(taken.sink)
        }
        taken.sink.finish(error: nil)
    }

    /// Deletes the file. Only when stopped (or never prepared).
    ///
    /// - Returns: whether a file was deleted.
    @discardableResult
    public func deleteRecording() throws(RecorderError) -> Bool {
        if isRecording || state.withLock({ $0 == .prepared }) && currentParts?.sink.hasFinished == false {
            throw RecorderError(.state, "stop the recording before deleting it")
        }
        if unlink(url) == 0 { return true }
        if errno == ENOENT { return false }
        let code = errno
        throw RecorderError(.file, "cannot delete \(url): \(String(cString: strerror(code)))", cause: .osError(code))
    }

    /// The open input's engine once prepared, for another tap to attach to (live captions).
    public var captureEngine: CaptureEngine? {
        parts.withLock { $0?.engine }
    }

    /// Whether frames are going to the file now (false while paused, armed or stopped).
    public var isRecording: Bool {
        currentParts?.sink.isRecording ?? false
    }

    /// Seconds recorded into the file (recorded frames ÷ rate; pauses excluded).
    public var currentTime: Double {
        Double(recordedFrames) / Double(settings.sampleRate)
    }

    /// Seconds since the input last delivered a frame (`CaptureEngine.secondsWithoutAudio`):
    /// 0 while audio flows, and when not recording.
    public var secondsWithoutAudio: Double {
        currentParts?.engine.secondsWithoutAudio ?? 0
    }

    /// Frames recorded into the file so far.
    public var recordedFrames: Int {
        currentParts?.sink.recordedFrames ?? 0
    }

    /// When the first frame in the file was captured, as Unix seconds (`CLOCK_REALTIME`,
    /// estimated from the chunk that brought it); `nil` until a frame was recorded. What a
    /// crash may lose is measured from here (`VOICEMEMO_EVENT_LOG`, the kill -9 tests).
    public var firstFrameCapturedAt: Double? {
        currentParts?.sink.firstFrameCapturedAt
    }

    /// Seconds of input captured since `prepareToRecord()`, recorded or not.
    public var deviceCurrentTime: Double {
        currentParts?.engine.deviceCurrentTime ?? 0
    }

    /// The inputs the recording went on from after its own went away (`InputSwitch`).
    public var inputSwitches: [InputSwitch] {
        currentParts?.engine.inputSwitches ?? []
    }

    /// Overruns, lost and dropped frames so far.
    public var statistics: RecorderStatistics {
        guard let parts = currentParts else { return RecorderStatistics() }
        return RecorderStatistics(
            overruns: parts.engine.overruns, lostFrames: parts.engine.lostFrames,
            droppedFrames: parts.sink.droppedFrames, framesWritten: parts.sink.framesWritten,
            replacedSamples: parts.engine.replacedSamples)
    }

    /// What was written, measured as `voicememo analyze` measures a file: sample peak, true
    /// peak, integrated loudness, loudness range, full-scale samples (pauses excluded). Ready
    /// once the recording has finished (`stop()` returned, or `hasFinished`); `nil` before,
    /// and always without `measuresStatistics`.
    ///
    /// The figures are of the samples as captured: for lossy formats (Opus, and Ogg Vorbis
    /// and MP3, encoded from an intermediate) and for a file narrower than the input (16-bit from a 24-bit
    /// engine) they are those of the PCM recorded, not of the encoding.
    public var measuredStatistics: ProgrammeStatistics? {
        currentParts?.sink.statistics
    }

    /// For MP3, Ogg Vorbis and ALAC (encoded from an intermediate while recording): the
    /// fraction of what was written so far that is already encoded into the final file, 0…1.
    /// Near 1 while a live input records; below 1 when the encoder fell behind (an unpaced
    /// source, a busy machine), and then what `stop()` still has to encode. Poll it from another
    /// thread while `stop()` runs to show "encoding MP3, 40 %". `nil` for the other formats,
    /// before `prepareToRecord()`, and once the recording has finished.
    public var finishingProgress: Double? {
        guard let sink = currentParts?.sink, !sink.hasFinished, let progress = sink.encodingProgress else { return nil }
        guard progress.written > 0 else { return 1 }
        return min(1, Double(progress.encoded) / Double(progress.written))
    }

    /// The error that ended the recording, if one did.
    public var error: RecorderError? {
        currentParts?.sink.error
    }

    /// Whether the recording has ended (stopped, duration reached, input ended or failed).
    public var hasFinished: Bool {
        currentParts?.sink.hasFinished ?? (state.withLock { $0 } == .stopped)
    }

    // MARK: Metering

    /// Whether the meter runs (on by default).
    public var isMeteringEnabled: Bool {
        get { currentParts?.engine.isMeteringEnabled ?? true }
        set { currentParts?.engine.isMeteringEnabled = newValue }
    }

    /// Takes a snapshot of the levels since the previous call.
    public func updateMeters() {
        currentParts?.engine.updateMeters()
    }

    /// The RMS level of `channel` in dBFS at the last `updateMeters()`; −160 for silence.
    public func averagePower(forChannel channel: Int) -> Float {
        currentParts?.engine.averagePower(forChannel: channel) ?? -160
    }

    /// The peak level of `channel` in dBFS at the last `updateMeters()`; −160 for silence.
    public func peakPower(forChannel channel: Int) -> Float {
        currentParts?.engine.peakPower(forChannel: channel) ?? -160
    }

    /// All channels' clips so far (`CaptureEngine.totalClipCount`).
    public var totalClipCount: Int {
        currentParts?.engine.totalClipCount ?? 0
    }

    // MARK: Private

    private var currentParts: Parts? { parts.withLock { $0 } }

    private func frames(_ seconds: Double, _ what: String) throws(RecorderError) -> Int {
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else {
            throw RecorderError(.settings, "the \(what) must be a number of seconds from 0 up, not \(seconds)")
        }
        return Int((seconds * Double(settings.sampleRate)).rounded())
    }
}

/// Counters of a recording.
public struct RecorderStatistics: Sendable, Equatable {
    /// Overruns the input recovered from (ALSA `-EPIPE`).
    public var overruns = 0
    /// Frames the input lost to overruns.
    public var lostFrames = 0
    /// Frames captured but not written because the writer fell behind.
    public var droppedFrames = 0
    /// Frames written into the file.
    public var framesWritten: Int64 = 0
    /// Float samples the input delivered that were not usable (NaN, ±∞, beyond full scale)
    /// and were repaired before anything saw them (`UsableSamples`).
    public var replacedSamples = ReplacedSamples()

    public init(
        overruns: Int = 0, lostFrames: Int = 0, droppedFrames: Int = 0, framesWritten: Int64 = 0,
        replacedSamples: ReplacedSamples = ReplacedSamples()
    ) {
        self.overruns = overruns
        self.lostFrames = lostFrames
        self.droppedFrames = droppedFrames
        self.framesWritten = framesWritten
        self.replacedSamples = replacedSamples
    }
}
