import Platform
import Audio
import Dispatch
import Metering
import SoundFiles
import Synchronization

/// Where a take is written: chosen by the owner when the take starts (a new memo's file).
public struct TakeDestination: Sendable {
    public var url: String
    public var metadata: SoundFileMetadata

    public init(url: String, metadata: SoundFileMetadata = .init()) {
        self.url = url
        self.metadata = metadata
    }
}

/// A take that started: passed to the owner to choose its file.
public struct TakeInfo: Sendable, Equatable {
    /// 0 for the first take of this recorder, then 1, 2, …
    public var number: Int
    /// The take's first device frame (trigger − pre-roll).
    public var startFrame: Int
    /// The frame whose block reached the threshold.
    public var triggerFrame: Int
}

/// A take that ended.
public struct FinishedTake: Sendable {
    public var info: TakeInfo
    /// Where it was written; `nil` when it was discarded before its file was opened.
    public var destination: TakeDestination?
    /// One past its last device frame.
    public var endFrame: Int
    /// Whether it had enough sound to keep; a discarded take's file should be removed.
    public var kept: Bool
    /// The highest block peak in the take, in dBFS.
    public var peakDB: Float
    /// Why its file could not be opened or written, if it could not.
    public var error: RecorderError?
    /// Frames written into its file.
    public var framesWritten: Int64
    /// What was written, measured (see `Recorder.measuredStatistics`); `nil` without
    /// `measuresStatistics` or when no file was opened.
    public var statistics: ProgrammeStatistics?
}

/// What a voice-activated recorder tells its owner, on the recorder's own thread.
public struct VoiceActivationEvents: Sendable {
    /// A take started: return where to write it (e.g. begin a memo titled with its start).
    public var destination: @Sendable (TakeInfo) throws(RecorderError) -> TakeDestination
    /// A take ended and its file is complete (or was never made).
    public var takeDidFinish: @Sendable (FinishedTake) -> Void

    public init(
        destination: @escaping @Sendable (TakeInfo) throws(RecorderError) -> TakeDestination,
        takeDidFinish: @escaping @Sendable (FinishedTake) -> Void
    ) {
        self.destination = destination
        self.takeDidFinish = takeDidFinish
    }
}

/// Records one file per utterance from a running capture engine.
///
/// Attaches a `VoiceActivatedTap` to the engine (beside any other taps: the meter,
/// a loudness analysis, a plain `Recorder`) and runs a
/// thread that runs the detector over the captured frames (level and speech) and a controller
/// thread that opens each take's file when it starts, closes it when it ends, and reports it. The engine keeps running between takes; the owner starts and
/// stops it.
public final class VoiceActivatedRecorder: Sendable {
    public let settings: VoiceActivationSettings
    public let recordingSettings: RecordingSettings
    /// Whether each take's frames are measured as they are written (`FinishedTake.statistics`).
    public let measuresStatistics: Bool

    private let engine: CaptureEngine
    private let tap: VoiceActivatedTap
    private let events: VoiceActivationEvents
    private let stopping = Atomic<Bool>(false)
    /// The analysis thread and the controller thread, joined by `stop()`.
    private let threads = Mutex<[JoinableThread]>([])
    /// The open file of each take in flight, and why a take has none.
    private let sinks = Mutex<[Int: (RecordingSink, TakeDestination)]>([:])
    private let failures = Mutex<[Int: RecorderError]>([:])
    private let quietQueue = DispatchQueue(label: "voicememo.vox.sink-events")

    /// Validates the settings and attaches to `engine` (which may already be running).
    ///
    /// - Parameter measuresStatistics: measure each take as it is written, for takes that
    ///   become memos (see `Recorder.measuredStatistics`); off by default.
    /// - Throws: `RecorderError` of kind `.settings` naming what is wrong.
    public init(
        settings: VoiceActivationSettings, recordingSettings: RecordingSettings, engine: CaptureEngine,
        measuresStatistics: Bool = false, events: VoiceActivationEvents
    ) throws(RecorderError) {
        try settings.validate()
        guard engine.format.sampleRate == recordingSettings.sampleRate,
            engine.format.channels == recordingSettings.channels
        else {
            throw RecorderError(.settings, "the open input delivers \(engine.format.sampleRate) Hz, \(engine.format.channels) ch, but the recording asks for \(recordingSettings.sampleRate) Hz, \(recordingSettings.channels) ch")
        }
        self.settings = settings
        self.recordingSettings = recordingSettings
        self.measuresStatistics = measuresStatistics
        self.engine = engine
        self.events = events
        tap = VoiceActivatedTap(settings: settings, format: engine.format, firstFrame: engine.capturedFrames)
        let analysis = JoinableThread(name: "vm-vox-analysis") { [self] in analysisLoop() }
        let controller = JoinableThread(name: "vm-vox-takes") { [self] in controlLoop() }
        threads.withLock { $0 = [analysis, controller] }
        engine.attach(tap)
    }

    deinit {
        stop()
    }

    /// Detaches from the engine, ends a take in progress (kept if it had enough sound),
    /// closes every file and reports every take. Idempotent; the engine keeps running.
    public func stop() {
        if !stopping.exchange(true, ordering: .acquiringAndReleasing) {
            engine.detach(tap)
            tap.endInput()
        }
        let started = threads.withLock { value -> [JoinableThread] in
            defer { value = [] }
            return value
        }
        for thread in started { thread.join() }
    }

    /// Makes the detector ignore the input from the next captured block on (`true`) or hear it
    /// again (`false`): the talking-app replay plays each take back into the room, and its own
    /// sound must never start a take. See `VoiceActivation.ignore(frames:firstFrame:)`.
    public func setIgnoringInput(_ ignoring: Bool) {
        tap.ignoringInput.store(ignoring, ordering: .releasing)
    }

    /// Whether the detector ignores the input now.
    public var isIgnoringInput: Bool { tap.ignoringInput.load(ordering: .acquiring) }

    /// What the detector is doing now.
    public var status: VoiceActivationStatus {
        tap.withHandoff { $0.status }
    }

    /// Whether input has ended and every take has been reported.
    public var hasFinished: Bool {
        tap.withHandoff { $0.inputEnded && $0.collected == $0.started }
    }

    /// Why capture ended, if it failed.
    public var inputError: CaptureError? {
        tap.withHandoff { $0.inputError }
    }

    /// Frames a take needed but lost because its file could not be opened in time.
    public var droppedFrames: Int {
        tap.withHandoff { $0.droppedFrames }
    }

    // MARK: The analysis thread and the controller thread

    /// The detector runs here, on a thread of its own: never on the capture thread (WebRTC's
    /// detector and the voicing check cost more than the capture loop may spend), and never
    /// behind the controller, whose owner may block it for a whole take (the replay), while the
    /// status the app shows and the takes that start and end must follow the input live.
    private func analysisLoop() {
        while true {
            if tap.analyse() { tap.serviceNeeded.signal() }
            if tap.withHandoff({ $0.inputEnded }) { break }
            _ = tap.changed.wait(timeout: .now() + .milliseconds(100))
        }
        tap.serviceNeeded.signal()
    }

    /// Opens each take's file, and closes and reports each take, in order (`takeDidFinish` runs
    /// here, and may block: the replay).
    private func controlLoop() {
        while true {
            let ending = tap.withHandoff { $0.inputEnded }
            service(inputEnded: ending)
            if ending, tap.withHandoff({ $0.inputEnded && $0.collected == $0.started }) { break }
            _ = tap.serviceNeeded.wait(timeout: .now() + .milliseconds(100))
        }
        tap.abandon()
    }

    /// Opens files for takes that need one, and closes and reports takes fed to their end, in order.
    private func service(inputEnded: Bool) {
        while true {
            let next = tap.withHandoff { handoff -> (Int, VoiceActivatedTap.Slot, Bool)? in
                guard handoff.collected < handoff.started,
                    let slot = handoff.slots[handoff.collected % VoiceActivatedTap.slotCount]
                else { return nil }
                return (handoff.collected, slot, handoff.finishedFeeding > handoff.collected)
            }
            guard let (number, slot, fullyFed) = next else { return }
            let info = TakeInfo(number: number, startFrame: slot.start.startFrame, triggerFrame: slot.start.triggerFrame)
            if !fullyFed {
                guard slot.sink == nil, !slot.skip else {
                    // Input that ended while this take's file was being opened fed nothing to
                    // it (the sink had not arrived) and will feed nothing more: feed it here.
                    guard inputEnded else { return }
                    tap.feedPending()
                    guard tap.withHandoff({ $0.finishedFeeding > number }) else { return }
                    continue
                }
                if let end = slot.end, !end.keep {
                    tap.withHandoff { $0.slots[number % VoiceActivatedTap.slotCount]?.skip = true }
                } else {
                    open(info)
                }
                tap.sinkArrived.signal()
                if inputEnded { tap.feedPending() }
                continue
            }
            collect(info, slot: slot)
        }
    }

    private func open(_ info: TakeInfo) {
        do throws(RecorderError) {
            let destination = try events.destination(info)
            let sink = try RecordingSink.creatingFile(
                at: destination.url, settings: recordingSettings, metadata: destination.metadata,
                format: engine.format, measuresStatistics: measuresStatistics, eventQueue: quietQueue,
                events: RecorderEvents())
            sink.start(atFrame: nil, limit: nil)
            sinks.withLock { $0[info.number] = (sink, destination) }
            tap.withHandoff { $0.slots[info.number % VoiceActivatedTap.slotCount]?.sink = sink }
        } catch {
            tap.withHandoff { $0.slots[info.number % VoiceActivatedTap.slotCount]?.skip = true }
            sinks.withLock { $0[info.number] = nil }
            failures.withLock { $0[info.number] = error }
        }
    }

    private func collect(_ info: TakeInfo, slot: VoiceActivatedTap.Slot) {
        let opened = sinks.withLock { $0.removeValue(forKey: info.number) }
        let failure = failures.withLock { $0.removeValue(forKey: info.number) }
        opened?.0.finish(error: nil)
        let end = slot.end
        let finished = FinishedTake(
            info: info, destination: opened?.1, endFrame: end?.endFrame ?? slot.fed,
            kept: (end?.keep ?? false) && failure == nil && opened?.0.error == nil,
            peakDB: end?.peakDB ?? -160, error: failure ?? opened?.0.error,
            framesWritten: opened?.0.framesWritten ?? 0, statistics: opened?.0.statistics)
        tap.withHandoff { handoff in
            handoff.slots[info.number % VoiceActivatedTap.slotCount] = nil
            handoff.collected = info.number + 1
        }
        tap.sinkArrived.signal()
        events.takeDidFinish(finished)
    }
}
