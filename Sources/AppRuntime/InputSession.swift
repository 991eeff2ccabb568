import VoiceActivation
import Platform
import Audio
import Dispatch
import Foundation
import Interface
import MemoLibrary
import Metering
import SoundFiles
import Synchronization

/// The open input (a running `CaptureEngine`, so the meter works while nothing
/// records) and the recording in progress, if any, attached to it.
///
/// Threading: while it is the app's session, its mutable parts (`recording`, `voice`, `alert`,
/// and the analysis the tick drains) are set and read on the UI queue (the tick's
/// `snapshot()`); the effect runner gets the session to open a recorder on its engine
/// (`makeRecording`, which changes nothing here) and, once the UI queue has let the session
/// go, to `close()` it. Those parts are held in a mutex (`shown`), so the compiler checks
/// the hand-over; the engine and recorders are thread-safe themselves.
final class InputSession: Sendable {
    /// A recording in progress.
    struct Recording {
        let recorder: Recorder
        /// The memo the library made for it (state `recording` until it is finished).
        let memo: MemoRecording
    }

    let source: InputSource
    let engine: CaptureEngine
    /// What stands behind the input, read once it is open (a sound server's ALSA device is an
    /// external plugin).
    let kind: InputKind
    /// What new memos are recorded as (rate and channels are the engine's).
    let settings: RecordingSettings

    private struct Shown {
        /// Sample-level analysis of the input for the screen.
        let analysis: InputAnalysis
        var recording: Recording?
        /// Voice activation (`v`), when armed.
        var voice: AppVoiceActivation?
        /// The noise alert's detector (the CLI's `LevelAlert`, on the capture thread), when on.
        var alert: LevelAlertTap?
        /// How many of the engine's `inputSwitches` were taken.
        var switchesTaken = 0
    }

    private let shown: Mutex<Shown>

    /// The recording the snapshots show.
    var recording: Recording? { shown.withLock { $0.recording } }

    /// Opens `source` and starts metering.
    ///
    /// - Throws: `RecorderError` with the device's own reason.
    init(source: InputSource, settings requested: RecordingSettings) throws(RecorderError) {
        let format = StreamFormat(
            sampleRate: requested.sampleRate, channels: requested.channels, sampleFormat: requested.preferredSampleFormat)
        let opened = try source.open(format: format, paced: true)
        kind = switch source {
        case .alsa: (opened as? ALSACaptureSource)?.isSoundServer == true ? .soundServer : .device
        case .pulse: .serverSource
        case .joined: .serverSources
        case .file: .file
        case .url: .stream
        case .tone: .tone
        }
        var settings = requested
        settings.sampleRate = opened.format.sampleRate
        settings.channels = opened.format.channels
        self.source = source
        self.settings = settings
        let engine = CaptureEngine(source: opened)
        self.engine = engine
        shown = Mutex(Shown(analysis: InputAnalysis(engine: engine)))
        engine.start()
    }

    /// How the header describes this input.
    var description: InputDescription {
        InputDescription(
            name: source.name, sampleRate: engine.format.sampleRate, channels: engine.format.channels,
            recordingFormat: settings.format.displayName, hasCaptureMixer: hasCaptureVolume, kind: kind)
    }

    /// Whether `<` `>` `M` have a volume to change: an ALSA device's mixer or a sound server's
    /// source; not a tone, a file, a stream or two joined sources (two volumes).
    var hasCaptureVolume: Bool {
        switch source {
        case .alsa, .pulse: true
        case .tone, .file, .url, .joined: false
        }
    }

    /// The inputs capture went on from since the last call (`InputSwitch`: a sound server's
    /// source removed, `on_source_lost = default`).
    func takeInputSwitches() -> [InputSwitch] {
        let switches = engine.inputSwitches
        return shown.withLock { shown in
            defer { shown.switchesTaken = switches.count }
            return Array(switches.dropFirst(shown.switchesTaken))
        }
    }

    /// Starts the noise alert's detector with `parameters` (replacing one that runs), or stops it.
    func setNoiseAlert(_ parameters: NoiseAlertParameters?) {
        let engine = engine
        shown.withLock { shown in
            shown.alert?.detach()
            shown.alert = parameters.map {
                LevelAlertTap(engine: engine, settings: LevelAlert.Settings(thresholdDB: $0.levelDB, duration: $0.hold))
            }
        }
    }

    /// The detector's alerts since the last call, in the Interface's words.
    private func noiseAlertSnapshot(_ alert: LevelAlertTap?) -> NoiseAlertSnapshot? {
        guard let alert else { return nil }
        let rate = engine.format.sampleRate
        return NoiseAlertSnapshot(alerts: alert.takeAlerts().alerts.map { Self.event($0, sampleRate: rate) }, isArmed: alert.isArmed)
    }

    /// One of the detector's alerts in the Interface's words (seconds, not frames).
    static func event(_ alert: LevelAlert.Alert, sampleRate: Int) -> NoiseAlertEvent {
        let rate = Double(max(sampleRate, 1))
        return NoiseAlertEvent(
            levelDB: alert.levelDB, stayed: Double(alert.frame - alert.startFrame) / rate, inputTime: Double(alert.frame) / rate)
    }

    /// Reads the meters and the recording state.
    func snapshot() -> EngineSnapshot {
        engine.updateMeters()
        let maxFrames = max(engine.format.sampleRate / 2, 1)
        let (recording, voice, alert, ballistics, diagnosis) = shown.withLock { shown in
            shown.analysis.update(maxFrames: maxFrames)
            return (shown.recording, shown.voice, shown.alert, shown.analysis.ballisticReadings(), shown.analysis.diagnosis)
        }
        let channels = (0..<engine.format.channels).map {
            ChannelLevel(average: engine.averagePower(forChannel: $0), peak: engine.peakPower(forChannel: $0))
        }
        let voiceActivation = voice?.snapshot
        let noiseAlert = noiseAlertSnapshot(alert)
        let clipCount = engine.totalClipCount
        guard let recorder = recording?.recorder else {
            return EngineSnapshot(
                channels: channels, voiceActivation: voiceActivation, ballistics: ballistics, diagnosis: diagnosis,
                noiseAlert: noiseAlert, clipCount: clipCount)
        }
        let state: RecordingState = recorder.isRecording ? .recording : recorder.hasFinished ? .idle : .paused
        return EngineSnapshot(
            channels: channels, recordedFrames: Int64(recorder.recordedFrames), recording: state,
            voiceActivation: voiceActivation, ballistics: ballistics, diagnosis: diagnosis, noiseAlert: noiseAlert,
            clipCount: clipCount)
    }

    /// Starts a recorder into the library's new memo on this input's engine. The recording
    /// is not this session's until `attach` (on the UI queue): the effect runner owns it.
    ///
    /// - Parameter onError: gets the error and the recording's path, on `queue`.
    func makeRecording(
        into memo: MemoRecording, queue: DispatchQueue, onError: @escaping @Sendable (RecorderError, String) -> Void
    ) throws(RecorderError) -> Recording {
        var metadata = memo.metadata
        metadata.software = Product.software
        let path = memo.memo.path
        let recorder = try Recorder(
            url: path, settings: settings, engine: engine, input: source, metadata: metadata,
            measuresStatistics: true, eventQueue: queue, events: RecorderEvents(encodeErrorDidOccur: { onError($0, path) }))
        try recorder.record()
        return Recording(recorder: recorder, memo: memo)
    }

    /// Shows `recording` in the snapshots from now on (UI queue).
    func attach(_ recording: Recording) {
        shown.withLock { $0.recording = recording }
    }

    /// Stops showing the recording in the snapshots (UI queue), before the runner stops it:
    /// the tick never reads a recorder that is being stopped.
    func detachRecording() -> Recording? {
        shown.withLock { shown in
            defer { shown.recording = nil }
            return shown.recording
        }
    }

    /// Voice activation on this session's engine with `parameters`, not yet shown in the
    /// snapshots (`attachVoice`): made on the effect runner, which changes nothing here.
    ///
    /// - Throws: `RecorderError` when the parameters are refused.
    func makeVoice(
        _ parameters: VoiceParameters, library: sending MemoLibrary, playbackDevice: String, eventLog: EventLog?,
        queue: DispatchQueue, report: @escaping @Sendable (AppVoiceActivation.Event) -> Void
    ) throws(RecorderError) -> AppVoiceActivation {
        try AppVoiceActivation(
            parameters: parameters, engine: engine, settings: settings,
            channelRoles: source.name.channelRoles(channels: settings.channels), library: library,
            playbackDevice: playbackDevice, eventLog: eventLog, queue: queue, report: report)
    }

    /// Shows `armed` in the snapshots from now on (UI queue).
    func attachVoice(_ armed: AppVoiceActivation) {
        shown.withLock { $0.voice = armed }
    }

    /// Stops showing voice activation in the snapshots (UI queue) and hands it to the caller,
    /// who stops it off the UI queue: stopping keeps a take in progress (finishing its file)
    /// and cuts a replay short, which can take a moment.
    func detachVoice() -> AppVoiceActivation? {
        shown.withLock { shown in
            defer { shown.voice = nil }
            return shown.voice
        }
    }

    /// Changes the armed voice activation's replay from the next kept take on.
    func setVoiceReplay(_ replay: ReplayParameters) {
        shown.withLock { $0.voice }?.setReplay(replay)
    }

    /// Stops voice activation (a take in progress is kept) and closes the input. A manual
    /// recording is the runner's to stop and save first (`RecordingEffects.save`).
    func close() {
        detachVoice()?.stop()
        setNoiseAlert(nil)
        shown.withLock { shown in
            shown.recording = nil
            shown.analysis.detach()
        }
        engine.stop()
    }
}
