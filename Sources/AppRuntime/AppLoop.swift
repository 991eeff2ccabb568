import Audio
import Dispatch
import Foundation
import Interface
import MemoLibrary
import RuntimeSupport
import SoundFiles
import Terminal

/// The app's edge: feeds keys, ticks and effect results to `reduce`, performs the
/// effects it returns, and draws the state.
///
/// Two serial queues. The UI queue (`queue`: curses is not thread-safe) only reads keys,
/// reduces, renders and ticks; a Dispatch timer polls the engine at about 30 Hz while an
/// input is open and four times a second otherwise, and a read source wakes it for keys.
/// Everything slow — the library (its one SQLite connection lives on the runner), files,
/// opening and closing devices, stopping a recorder (which joins its threads) — runs on
/// the `EffectRunner`'s queue, one effect at a time in order, and answers with a closure
/// run back on the UI queue that dispatches the result actions and then
/// `Action.workFinished` (Bubble Tea's `Cmd`: nothing is dispatched re-entrantly from the
/// runner). UI-queue state: `state`, `session` (and its recording, voice activation and noise alert,
/// which the tick reads), `playback`, the timer. The runner's: `AppEffects.store` and the
/// recording in progress as the runner knows it (`AppEffects.recording`).
public final class AppLoop: @unchecked Sendable {
    /// Polling intervals: while audio flows, and while nothing moves.
    static let activeInterval = DispatchTimeInterval.milliseconds(33)
    static let idleInterval = DispatchTimeInterval.milliseconds(250)
    /// How often the runner looks for changes other processes made to the library.
    static let libraryPollInterval = DispatchTimeInterval.seconds(1)

    let queue = DispatchQueue(label: "voicememo.app")
    private let terminal: CursesTerminal
    let effects: AppEffects
    let initialSource: InputSource
    let settings: RecordingSettings
    /// The ALSA device memos play on.
    /// Where memos and replays play: `--device`, then the output picker (`O`). UI queue.
    var playbackDevice: String
    let environment: [String: String]
    private let finished = DispatchSemaphore(value: 0)
    private let frameLog: FrameLog?
    /// `VOICEMEMO_EVENT_LOG`: the noise alert's moments (`noise_alert_on`, `noise_alert`, `bell`) and
    /// the voice replay's (`replay_start ID`, `replay_end ID`).
    let eventLog: EventLog?
    var state: AppState
    var session: InputSession?
    var playback: PlaybackSession?
    /// The network stream playing (`o`), and a count of them (events of a replaced one are dropped).
    var streamPlayer: StreamPlayer?
    var streamGeneration = 0
    /// The background transcription (`transcribe = auto`), started once the library is open.
    var transcription: TranscriptionJob?
    /// What `transcription` was last told: paused or not.
    private var transcriptionPaused = false
    /// The memo whose envelope was last asked of the runner for the waveform band
    /// (`AppState.wantedWaveform`).
    var waveformRequested: Int64?
    /// The PocketSphinx model folder (`transcribe.model`).
    let transcriptionModel: String
    /// Counts plays, so that an event from a player already replaced is ignored.
    var playbackGeneration = 0
    /// Counts what ends recordings (stop, quit, input switch): a recording whose start
    /// answers after one of them is not shown as running.
    var recordingEpoch = 0
    /// Counts arming and disarming voice activation: a detector armed on the runner after a
    /// later `v` (or after its input closed) is stopped instead of shown.
    var voiceEpoch = 0
    /// The memo `s` is saving on the runner, until the save answers: a title given to it
    /// meanwhile goes beside the runner's queue (`AppEffects.offerTitle`).
    var savingMemoID: Int64?
    private var timer: (any DispatchSourceTimer)?
    private var timerIsActive = false
    private var timerIsScheduled = false
    private var keySource: (any DispatchSourceRead)?
    /// On the runner's queue: `AppEffects.poll()` every `libraryPollInterval`.
    private var libraryPoll: (any DispatchSourceTimer)?
    /// Quitting was asked for: the runner finishes what is queued, then the app ends.
    var isFinishing = false
    private var isFinished = false
    /// Why the app could not run (the library did not open), reported after the screen is given back.
    var fatalFailure: MemoLibraryError?
    /// Whether a stop signal has arrived (`AppRuntimeSettings.stopRequested`).
    private let stopRequested: @Sendable () -> Bool

    /// - Parameters:
    ///   - settings: the input, recording settings, playback device, model and environment.
    ///   - configure: the caller's defaults for the screen (the config file's meter and
    ///     voice-activation choices), applied to the first state.
    public init(terminal: CursesTerminal, settings runtime: AppRuntimeSettings, configure: (inout AppState) -> Void = { _ in }) {
        self.terminal = terminal
        environment = runtime.environment
        initialSource = runtime.source
        settings = runtime.recording
        playbackDevice = runtime.playbackDevice
        stopRequested = runtime.stopRequested
        effects = AppEffects(environment: environment)
        transcriptionModel = runtime.transcriptionModel
        frameLog = environment["VOICEMEMO_FRAME_LOG"].flatMap { FrameLog(path: $0) }
        eventLog = EventLog(environment: environment)
        let size = terminal.size
        state = AppState(
            width: size.width, height: size.height, usesColor: terminal.usesColor,
            utcOffset: TimeZone.current.secondsFromGMT(), now: Date().timeIntervalSince1970)
        configure(&state)
        state.exportFolder = FileManager.default.currentDirectoryPath
        state.playbackDevice = playbackDevice
    }

    /// Runs until the app quits or a stop signal arrives; the memo being recorded is saved.
    ///
    /// - Throws: why the library cannot be opened (after the screen is given back).
    public func runUntilQuit() throws(MemoLibraryError) {
        queue.async { self.start() }
        finished.wait()
        frameLog?.close()
        eventLog?.close()
        if let fatalFailure { throw fatalFailure }
    }

    // MARK: Events

    private func start() {
        // A stop signal, quitting, or `inputOpenLimit` ends a wait for a device to open.
        ALSAPCM.openInterruption.withLock { [effects, stopRequested] in
            $0 = { stopRequested() || effects.shouldGiveUpOpening() }
        }
        let keys = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: queue)
        keys.setEventHandler { [self] in pumpKeys() }
        keys.resume()
        keySource = keys
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [self] in tick() }
        self.timer = timer
        scheduleTimer()
        timer.resume()
        // Between the runner's jobs, never during one: the library is the runner's alone.
        let poll = DispatchSource.makeTimerSource(queue: effects.queue)
        poll.setEventHandler { [self] in
            let actions = effects.poll()
            guard !actions.isEmpty else { return }
            queue.async { [self] in
                actions.forEach(dispatch)
                render()
            }
        }
        poll.schedule(deadline: .now() + Self.libraryPollInterval, repeating: Self.libraryPollInterval, leeway: .milliseconds(100))
        poll.resume()
        libraryPoll = poll
        // The first frame comes before the input and the library are open: both run on the runner.
        dispatch(.launched(input: initialSource.description))
        render()
    }

    private func tick() {
        guard !isFinished else { return }
        if stopRequested(), !isFinishing {
            stopForSignal()
        }
        pumpKeys()
        if let session, session.engine.hasEnded {
            inputEnded(session)
        }
        let now = Date().timeIntervalSince1970
        if let playback { dispatch(.playbackProgress(time: now, playback.snapshot())) }
        if let streamPlayer { dispatch(.streamProgress(time: now, streamSnapshot(streamPlayer))) }
        let snapshot = session?.snapshot()
        for alert in snapshot?.noiseAlert?.alerts ?? [] {
            eventLog?.note(String(format: "noise_alert level=%.1f since=%.3f input=%.3f", alert.levelDB, alert.inputTime - alert.stayed, alert.inputTime), at: now)
        }
        dispatch(.tick(time: now, snapshot: snapshot))
        scheduleTimer()
        render()
    }

    private func pumpKeys() {
        var any = false
        while !isFinished, let event = terminal.readKey() {
            any = true
            switch event {
            case .resize:
                let size = terminal.size
                dispatch(.resize(width: size.width, height: size.height))
            case .key(let key):
                dispatch(.clock(time: Date().timeIntervalSince1970))
                dispatch(.key(key))
            }
        }
        if any { render() }
    }

    func dispatch(_ action: Action) {
        guard !isFinished else { return }
        for effect in reduce(&state, action) {
            perform(effect, tracked: effect.isRunnerWork)
        }
        requestWaveformIfWanted()
        if let transcription, state.pausesTranscription != transcriptionPaused {
            transcriptionPaused = state.pausesTranscription
            transcription.setPaused(transcriptionPaused)
        }
    }

    /// Wakes the background transcription, starting it the first time (the library is open by then).
    func transcribeNewMemos() {
        guard state.transcription.isEnabled, !isFinishing else { return }
        if let transcription {
            transcription.wake()
            return
        }
        let job = TranscriptionJob(environment: environment, modelDirectory: transcriptionModel, queue: queue) { [self] event in
            dispatch(.transcription(event))
            render()
        }
        transcriptionPaused = state.pausesTranscription
        job.setPaused(transcriptionPaused)
        job.start()
        transcription = job
    }

    /// The terminal's bell (`Effect.ringBell`).
    func ringBell() {
        terminal.ringBell()
        eventLog?.note("bell")
    }

    func render() {
        guard !isFinished else { return }
        terminal.draw(AppView.render(state))
        frameLog?.frame(work: state.work.count, prompt: state.mode.isRenaming)
        scheduleTimer()
    }

    /// Fast while audio flows or work is in flight (its status line counts), slow otherwise.
    func scheduleTimer() {
        let active = session != nil || playback != nil || streamPlayer != nil || !state.work.isEmpty
        guard let timer, active != timerIsActive || !timerIsScheduled else { return }
        timerIsActive = active
        timerIsScheduled = true
        let interval = active ? Self.activeInterval : Self.idleInterval
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(5))
    }

    /// SIGINT/SIGTERM/SIGHUP: save the recording and quit, as `q` then `y` would.
    private func stopForSignal() {
        state.isQuitting = true
        perform(.quit, tracked: false)
    }

    /// The input stopped by itself (unplugged, a file source at its end): what was recorded is saved.
    private func inputEnded(_ ended: InputSession) {
        let reason = ended.engine.error.map { "\($0.message)" } ?? "it ran out"
        recordingEpoch += 1
        session = nil
        scheduleTimer()
        // The source last: a long file path is what the status line may cut.
        dispatch(.inputFailed("The input stopped: \(reason). Press i to choose an input. It was \(ended.source)."))
        onRunner(tracked: false) { effects in
            let saved = effects.saveRecording { _, _ in }
            ended.close()
            return { [self] in saved.forEach(dispatch) }
        }
    }

    /// Runs `work` on the effect runner; the closure it returns runs back on this queue,
    /// followed (for work the reducer tracks) by `workFinished`, then a frame.
    func onRunner(tracked: Bool, _ work: @escaping @Sendable (AppEffects) -> @Sendable () -> Void) {
        effects.queue.async { [self] in
            let answer = work(effects)
            queue.async { [self] in
                answer()
                if tracked { dispatch(.workFinished) }
                render()
            }
        }
    }

    /// Closes what is still open and lets `runUntilQuit` return. Runs on this queue after
    /// the runner has done everything asked before the quit.
    func finishNow() {
        guard !isFinished else { return }
        transcription?.stop()
        transcription = nil
        playback?.stop()
        playback = nil
        streamPlayer?.stop()
        streamPlayer = nil
        session?.close()
        session = nil
        isFinished = true
        timer?.cancel()
        libraryPoll?.cancel()
        keySource?.cancel()
        terminal.end()
        finished.signal()
    }
}

extension Mode {
    /// Whether this is the title prompt (the frame log marks it).
    var isRenaming: Bool {
        if case .renaming = self { return true }
        return false
    }
}
