import Platform
import Audio
import Dispatch
import Foundation
import Interface
import MemoLibrary
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
/// the runner's queue (`AppEffects`), one effect at a time in order, and answers with a closure
/// run back on the UI queue that dispatches the result actions and then
/// `Action.workFinished` (Bubble Tea's `Cmd`: nothing is dispatched re-entrantly from the
/// runner). UI-queue state: `state`, `session` (and its recording, voice activation and noise alert,
/// which the tick reads), the stream playing, the timer. The runner's: `AppEffects.store`.
/// Each feature's effects are performed by its handler (`Effects/`: `perform` hands each
/// effect to the one `Effect.feature` names), which keeps its own state on either side, in
/// mutexes, and its guard against stale results. `@unchecked Sendable`: the loop is confined to
/// the UI queue, which the compiler cannot see (a Dispatch queue is no actor; making the loop
/// one needs an executor over that queue).
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
    /// `on_source_lost`, for the `pulse:` inputs chosen with `i`.
    let whenServerSourceLost: ServerSourceLoss
    /// `echo_cancel`, for the meetings chosen with `i`.
    let cancelsMeetingEcho: Bool
    let environment: [String: String]
    private let finished = DispatchSemaphore(value: 0)
    private let frameLog: FrameLog?
    /// `VOICEMEMO_EVENT_LOG`: the noise alert's moments (`noise_alert_on`, `noise_alert`, `bell`) and
    /// the voice replay's (`replay_start ID`, `replay_end ID`).
    let eventLog: EventLog?
    var state: AppState
    var session: InputSession?
    // One handler per feature (`Effect.feature`).
    let recordings = RecordingEffects()
    let playback: PlaybackEffects
    let library = LibraryEffects()
    let inputs = InputEffects()
    let voice = VoiceEffects()
    let streams = StreamEffects()
    let transcripts: TranscriptEffects
    let editing = EditingEffects()
    /// The live captioner while recording with captions on (`C`).
    let captions: LiveCaptionRunner
    let keptSettings: SettingsEffects
    /// The network stream playing (`o`), and a count of them (events of a replaced one are dropped).
    var streamPlayer: StreamPlayer?
    var streamGeneration = 0
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
        whenServerSourceLost = runtime.whenServerSourceLost
        cancelsMeetingEcho = runtime.cancelsMeetingEcho
        stopRequested = runtime.stopRequested
        effects = AppEffects(environment: environment, recordings: recordings)
        transcripts = TranscriptEffects(modelDirectory: runtime.transcriptionModel, titlesFromWords: runtime.titlesFromWords)
        keptSettings = SettingsEffects(keep: runtime.keepSettings)
        frameLog = environment["VOICEMEMO_FRAME_LOG"].flatMap { FrameLog(path: $0) }
        eventLog = EventLog(environment: environment)
        captions = LiveCaptionRunner(modelDirectory: runtime.transcriptionModel, eventLog: eventLog)
        let size = terminal.size
        var first = AppState(
            width: size.width, height: size.height, usesColor: terminal.usesColor,
            utcOffset: TimeZone.current.secondsFromGMT(), now: Date().timeIntervalSince1970)
        configure(&first)
        first.exportFolder = FileManager.default.currentDirectoryPath
        first.playbackDevice = runtime.playbackDevice
        state = first
        // The player starts with the kept volume and enhancement, as the header shows them.
        playback = PlaybackEffects(device: runtime.playbackDevice, settings: first.playbackSettings)
    }

    /// Where memos and replays play: `--device`, then the output picker (`O`). UI queue.
    var playbackDevice: String { playback.device }

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
        dispatch(.launched(input: initialSource.name))
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
        for change in session?.takeInputSwitches() ?? [] {
            eventLog?.note(InputSwitchText.event(change))
            dispatch(.inputSwitched(sentence: InputSwitchText.sentence(change), markerLabel: InputSwitchText.markerLabel(change)))
        }
        let now = Date().timeIntervalSince1970
        if let playing = playback.session { dispatch(.playbackProgress(time: now, playing.snapshot())) }
        if let streamPlayer { dispatch(.streamProgress(time: now, streamSnapshot(streamPlayer))) }
        let snapshot = session?.snapshot()
        for alert in snapshot?.noiseAlert?.alerts ?? [] {
            eventLog?.note(String(format: "noise_alert level=%.1f since=%.3f input=%.3f", alert.levelDB, alert.inputTime - alert.stayed, alert.inputTime), at: now)
        }
        for update in captions.takeUpdates() { dispatch(.captions(update)) }
        if state.scheduleIsDue(at: now) { dispatch(.scheduleReached(time: now)) }
        if state.inputListIsDue(at: now) { dispatch(.inputListDue(time: now)) }
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
        let effects = reduce(&state, action)
        // Transcription pauses before the effects start a recording, and resumes only after
        // they have stopped one: it never runs beside a recording's first or last frames.
        if state.pausesTranscription { transcripts.follow(pausing: true) }
        for effect in effects {
            perform(effect, tracked: effect.isRunnerWork)
        }
        editing.requestWaveformIfWanted(state.wantedWaveform, on: self)
        transcripts.follow(pausing: state.pausesTranscription)
        captions.follow(wanted: state.wantsCaptions, engine: session?.engine)
    }

    /// Hands `effect` to its feature's handler (`Effect.feature`).
    func perform(_ effect: Effect, tracked: Bool) {
        switch effect.feature {
        case .recording: recordings.perform(effect, on: self, tracked: tracked)
        case .playback: playback.perform(effect, on: self, tracked: tracked)
        case .library: library.perform(effect, on: self, tracked: tracked)
        case .inputs: inputs.perform(effect, on: self, tracked: tracked)
        case .voice: voice.perform(effect, on: self, tracked: tracked)
        case .streams: streams.perform(effect, on: self, tracked: tracked)
        case .transcripts: transcripts.perform(effect, on: self, tracked: tracked)
        case .editing: editing.perform(effect, on: self, tracked: tracked)
        case .settings: keptSettings.perform(effect, on: self)
        case .app: quit()
        }
    }

    /// `quit`: behind everything already asked of the runner, so a save in progress completes;
    /// an input still opening is abandoned (it waits for a server that may not answer).
    private func quit() {
        isFinishing = true
        effects.abandonOpening()
        onRunner(tracked: false) { [self] effects in
            // A recording whose start answered after the quit was asked for.
            let saved = recordings.save(effects) { _, _ in }
            return { [self] in
                saved.forEach(dispatch)
                finishNow()
            }
        }
    }

    /// `.workProgress` for the work running now, from the runner; nothing for untracked work.
    func progressReporter(_ tracked: Bool) -> @Sendable (Double?, String) -> Void {
        guard tracked else { return { _, _ in } }
        return { [self] fraction, stage in
            queue.async { [self] in dispatch(.workProgress(fraction: fraction, stage: stage)) }
        }
    }

    /// The terminal's bell (`Effect.ringBell`).
    func ringBell() {
        terminal.ringBell()
        eventLog?.note("bell")
    }

    func render() {
        guard !isFinished else { return }
        terminal.draw(AppView.render(state))
        frameLog?.frame(
            work: state.work.count, prompt: state.mode.isRenaming,
            peakDB: state.meters.reduce(FrameLogLine.noPeak) { max($0, $1.peak) })
        scheduleTimer()
    }

    /// Fast while audio flows or work is in flight (its status line counts), slow otherwise.
    func scheduleTimer() {
        let active = session != nil || playback.session != nil || streamPlayer != nil || !state.work.isEmpty
        guard let timer, active != timerIsActive || !timerIsScheduled else { return }
        timerIsActive = active
        timerIsScheduled = true
        let interval = active ? Self.activeInterval : Self.idleInterval
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(5))
    }

    /// SIGINT/SIGTERM/SIGHUP: save the recording and quit, as `q` then `y` would.
    private func stopForSignal() {
        state.isQuitting = true
        quit()
    }

    /// The input stopped by itself (unplugged, a file source at its end): what was recorded is
    /// saved. A failed input's reason stays on the status line with the memo's name ("Recording
    /// stopped: …"), as when the recorder notices first, rather than giving way to "Saved" and
    /// the title prompt; an input that ran out is saved as `s` saves.
    private func inputEnded(_ ended: InputSession) {
        let failure = ended.engine.error?.message
        recordings.endShownRecordings()
        session = nil
        scheduleTimer()
        dispatch(.inputFailed(.inputStopped(ended.source.name, reason: failure ?? "it ran out")))
        onRunner(tracked: false) { [recordings] effects in
            let saved = recordings.save(effects, stoppedBy: failure) { _, _ in }
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
        keptSettings.finish()
        transcripts.end()
        captions.end()
        playback.end()
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
