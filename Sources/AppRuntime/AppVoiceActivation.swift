import VoiceActivation
import Platform
import Audio
import Dispatch
import Foundation
import Interface
import MemoLibrary
import Vocabulary
import SoundFiles
import Synchronization

/// Voice activation on the app's open input (`v`): a `VoiceActivatedRecorder` attached to
/// the running engine, each take begun as a memo titled with its start time, kept takes
/// finished and reported, short ones abandoned; with the panel's replay on, each kept take
/// played back on the app's playback device (the CLI's `TakeReplay`, as `record --vox
/// --replay`) while the detector ignores the input.
///
/// The recorder calls back on its own controller thread, which must not wait for the
/// app's queue (the app queue joins that thread when it disarms), so the takes go into a
/// library connection of their own and results reach the app with `queue.async`. The replay
/// blocks that thread while it plays (no take can start meanwhile); `stop()` cancels it first.
final class AppVoiceActivation: Sendable {
    /// What happened to a take, delivered on the app's queue.
    enum Event: Sendable {
        case saved(Memo)
        case failed(AppFailure)
    }

    private let recorder: VoiceActivatedRecorder
    private let replay: TakeReplay
    private let takes: AppTakes

    /// Arms on `engine` (already running) with `parameters` (their replay included).
    ///
    /// - Parameters:
    ///   - channelRoles: a meeting's, which every take keeps.
    ///   - library: a library connection used only by the recorder's thread.
    ///   - playbackDevice: where the replay plays (the app's `--device`).
    ///   - eventLog: gets `replay_start ID` and `replay_end ID` around each replay.
    ///   - report: called on `queue` for each kept take and each failure.
    /// - Throws: `RecorderError` when the settings are refused.
    init(
        parameters: VoiceParameters, engine: CaptureEngine, settings: RecordingSettings, channelRoles: ChannelRoles? = nil,
        library: sending MemoLibrary, playbackDevice: String, eventLog: EventLog?, queue: DispatchQueue,
        report: @escaping @Sendable (Event) -> Void
    ) throws(RecorderError) {
        let rate = Double(engine.format.sampleRate)
        let origin = Date().addingTimeInterval(-Double(engine.capturedFrames) / rate)
        let replay = TakeReplay(device: playbackDevice)
        let takes = AppTakes(
            library: library, settings: settings, channelRoles: channelRoles, replay: replay,
            replaySettings: parameters.replay, eventLog: eventLog
        ) { event in queue.async { report(event) } }
        self.replay = replay
        self.takes = takes
        recorder = try VoiceActivatedRecorder(
            settings: Self.settings(parameters), recordingSettings: settings, engine: engine, measuresStatistics: true,
            events: VoiceActivationEvents(
                destination: { info throws(RecorderError) in
                    try takes.begin(info, at: origin.addingTimeInterval(Double(info.startFrame) / rate))
                },
                takeDidFinish: { finished in takes.finish(finished) }))
        replay.attach(recorder)
    }

    /// Replays the kept takes from the next one on with `settings` (off, or on at a pitch).
    func setReplay(_ settings: ReplayParameters) {
        takes.replaySettings.withLock { $0 = settings }
    }

    /// The engine's voice-activation settings for the app's parameters.
    static func settings(_ parameters: VoiceParameters) -> VoiceActivationSettings {
        VoiceActivationSettings(
            startThresholdDB: parameters.thresholdDB, hangTime: parameters.silence, minimumTake: parameters.minimum,
            preRoll: parameters.preRoll, listensForSpeech: parameters.listensForSpeech)
    }

    /// The detector's reading now, for a tick.
    var snapshot: VoiceActivationSnapshot {
        let status = recorder.status
        // Ignoring is the replay's (and its echo tail's): what `record --vox` says as "replaying".
        let phase: VoiceActivationPhase = switch status.phase {
        case .calibrating: .calibrating
        case .armed: recorder.isIgnoringInput ? .replaying : .listening
        case .recording: .recording
        }
        return VoiceActivationSnapshot(
            phase: phase, levelDB: status.levelDB, thresholdDB: status.startThresholdDB, silence: status.silence,
            hangTime: status.hangTime, takeFrames: Int64(status.takeFrames), noiseFloorDB: status.noiseFloorDB,
            noiseIsClose: status.isNoiseCloseToThreshold, hearsSpeech: status.hearsSpeech,
            heardSpeechRecently: status.heardSpeechRecently, take: phase == .recording ? takes.current() : nil)
    }

    /// Detaches; a take in progress is kept (if it had enough sound) and reported, a replay
    /// playing is cut short (stopping joins the thread that replays).
    func stop() {
        replay.cancel()
        recorder.stop()
    }
}

/// The memos of the app's voice-activated takes. Called on the recorder's controller thread.
private final class AppTakes: Sendable {
    private let library: Mutex<MemoLibrary>
    private let recordings = Mutex<[Int: MemoRecording]>([:])
    private let settings: RecordingSettings
    private let channelRoles: ChannelRoles?
    private let replay: TakeReplay
    /// The panel's replay, read as each kept take is saved; `AppVoiceActivation.setReplay` changes it.
    let replaySettings: Mutex<ReplayParameters>
    private let eventLog: EventLog?
    private let report: @Sendable (AppVoiceActivation.Event) -> Void
    /// The last size `current()` had measured, and of which take's memo.
    private let measuredSize = Mutex<(memoID: Int64, bytes: Int64?)?>(nil)
    /// Whether a measurement is under way on `sizeQueue`.
    private let measuring = Atomic<Bool>(false)
    private let sizeQueue = DispatchQueue(label: "voicememo.vox.take-size", qos: .utility)

    init(
        library: sending MemoLibrary, settings: RecordingSettings, channelRoles: ChannelRoles?, replay: TakeReplay,
        replaySettings: ReplayParameters, eventLog: EventLog?, report: @escaping @Sendable (AppVoiceActivation.Event) -> Void
    ) {
        self.library = Mutex(library)
        self.settings = settings
        self.channelRoles = channelRoles
        self.replay = replay
        self.replaySettings = Mutex(replaySettings)
        self.eventLog = eventLog
        self.report = report
    }

    func begin(_ info: TakeInfo, at date: Date) throws(RecorderError) -> TakeDestination {
        let title = MemoTitle.defaultTitle(for: date, timeZone: .current)
        let result = library.withLock { library in
            Result { () throws(MemoLibraryError) in
                try library.beginRecording(title: title, settings: settings, at: date, channelRoles: channelRoles)
            }
        }
        let recording: MemoRecording
        switch result {
        case .success(let begun): recording = begun
        case .failure(let error): throw RecorderError(.file, error.description)
        }
        recordings.withLock { $0[info.number] = recording }
        var metadata = recording.metadata
        metadata.software = Product.software
        return TakeDestination(url: recording.memo.path, metadata: metadata)
    }

    /// The memo of the take being recorded and its file's size as last measured.
    ///
    /// Called on the app's queue each tick, so the size is not measured here: a `stat` of the
    /// take's file runs on a queue of its own, one at a time, and its result shows from the
    /// next tick on. A folder that stops answering (a network mount gone away) leaves the last
    /// size on screen and blocks that queue, never the app's.
    func current() -> (memoID: Int64, bytes: Int64?)? {
        guard let recording = recordings.withLock({ $0.max { $0.key < $1.key }?.value }) else { return nil }
        let memoID = recording.memo.id
        if !measuring.exchange(true, ordering: .acquiringAndReleasing) {
            let path = recording.memo.path
            sizeQueue.async { [self] in
                var info = stat()
                let bytes: Int64? = stat(path, &info) == 0 ? Int64(info.st_size) : nil
                measuredSize.withLock { $0 = (memoID, bytes) }
                measuring.store(false, ordering: .releasing)
            }
        }
        let measured = measuredSize.withLock { $0 }
        return (memoID, measured?.memoID == memoID ? measured?.bytes : nil)
    }

    func finish(_ take: FinishedTake) {
        let recording = recordings.withLock { $0.removeValue(forKey: take.info.number) }
        if let error = take.error {
            report(.failed(.voiceTakeNotRecorded(detail: error.message)))
        }
        guard let recording else { return }
        let keep = take.kept || (take.error != nil && take.framesWritten > 0)
        let result = library.withLock { library in
            Result { () throws(MemoLibraryError) -> Memo? in
                guard keep else {
                    try library.abandonRecording(recording)
                    return nil
                }
                return try library.finishRecording(recording, statistics: take.statistics)
            }
        }
        switch result {
        case .success(let memo?):
            report(.saved(memo))
            replayIfOn(memo)
        case .success(nil): break
        case .failure(let error): report(.failed(.voiceTakeNotSaved(detail: error.description)))
        }
    }

    /// Plays the saved take back when the panel's replay is on; returns when it has played.
    private func replayIfOn(_ memo: Memo) {
        let settings = replaySettings.withLock { $0 }
        guard settings.isOn else { return }
        do {
            try replay.replay(memo.path, memoID: memo.id, pitchSemitones: settings.pitchSemitones, eventLog: eventLog)
        } catch {
            report(.failed(.replay(title: memo.title, detail: error.message)))
        }
    }
}
