import Audio
import Dispatch
import Foundation
import Interface
import MemoLibrary
import SoundFiles
import Terminal

/// The app's edge: feeds keys, ticks and effect results to `reduce`, performs the
/// effects it returns, and draws the state. Everything runs on one serial queue (curses
/// is not thread-safe); a Dispatch timer polls the engine at about 30 Hz while an input
/// is open and four times a second otherwise, and a read source wakes it for keys.
final class AppLoop: @unchecked Sendable {
    /// Polling intervals: while audio flows, and while nothing moves.
    static let activeInterval = DispatchTimeInterval.milliseconds(33)
    static let idleInterval = DispatchTimeInterval.milliseconds(250)

    private let queue = DispatchQueue(label: "voicememo.app")
    private let terminal: CursesTerminal
    private let store: MemoStore
    private let initialSource: InputSource
    private let settings: RecordingSettings
    /// The ALSA device memos play on.
    private let playbackDevice: String
    private let finished = DispatchSemaphore(value: 0)
    private var state: AppState
    private var session: InputSession?
    private var playback: PlaybackSession?
    /// Counts plays, so that an event from a player already replaced is ignored.
    private var playbackGeneration = 0
    private var timer: (any DispatchSourceTimer)?
    private var timerIsActive = false
    private var timerIsScheduled = false
    private var keySource: (any DispatchSourceRead)?
    private var isFinished = false

    /// - Parameters:
    ///   - playbackDevice: the ALSA device memos play through.
    ///   - configuration: the config file's meter and voice-activation defaults.
    init(
        terminal: CursesTerminal, store: MemoStore, source: InputSource, settings: RecordingSettings,
        playbackDevice: String, configuration: Configuration = Configuration()
    ) {
        self.terminal = terminal
        self.store = store
        self.initialSource = source
        self.settings = settings
        self.playbackDevice = playbackDevice
        let size = terminal.size
        state = AppState(
            width: size.width, height: size.height, usesColor: terminal.usesColor,
            utcOffset: TimeZone.current.secondsFromGMT(), now: Date().timeIntervalSince1970)
        state.apply(configuration)
    }

    /// Runs until the app quits or a stop signal arrives; the memo being recorded is saved.
    func runUntilQuit() -> ExitCode {
        queue.async { self.start() }
        finished.wait()
        return .success
    }

    // MARK: Events

    private func start() {
        reloadLibrary()
        open(initialSource)
        let keys = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: queue)
        keys.setEventHandler { [self] in pumpKeys() }
        keys.resume()
        keySource = keys
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [self] in tick() }
        self.timer = timer
        scheduleTimer()
        timer.resume()
        render()
    }

    private func tick() {
        guard !isFinished else { return }
        if StopSignals.pending != nil {
            finish()
            return
        }
        pumpKeys()
        if let session, session.engine.hasEnded {
            inputEnded(session)
        }
        let now = Date().timeIntervalSince1970
        if let playback { dispatch(.playbackProgress(time: now, playback.snapshot())) }
        dispatch(.tick(time: now, snapshot: session?.snapshot()))
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
                dispatch(.key(key))
            }
        }
        if any { render() }
    }

    private func dispatch(_ action: Action) {
        guard !isFinished else { return }
        for effect in reduce(&state, action) {
            perform(effect)
        }
    }

    private func render() {
        guard !isFinished else { return }
        terminal.draw(AppView.render(state))
    }

    private func scheduleTimer() {
        let active = session != nil || playback != nil
        guard let timer, active != timerIsActive || !timerIsScheduled else { return }
        timerIsActive = active
        timerIsScheduled = true
        let interval = active ? Self.activeInterval : Self.idleInterval
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(5))
    }

    // MARK: Effects

    private func perform(_ effect: Effect) {
        switch effect {
        case .startRecording(let title):
            startRecording(title: title)
        case .pauseRecording:
            session?.recording?.recorder.pause()
        case .resumeRecording:
            do {
                try session?.recording?.recorder.record()
            } catch {
                dispatch(.failed("Cannot resume recording: \(error.message)"))
            }
        case .stopRecording:
            saveRecording(session?.stopRecording())
        case .renameMemo(let id, let title):
            libraryChange { try store.rename(id, to: title) }
        case .deleteMemo(let id):
            libraryChange { try store.delete(id) }
        case .restoreMemo(let id):
            libraryChange { try store.restore(id) }
        case .purgeMemo(let id):
            libraryChange { try store.purge(id) }
        case .listInputs:
            dispatch(.inputsListed(InputChoices.available(current: session?.source ?? initialSource)))
        case .selectInput(let text):
            do {
                let source = try InputSource(parsing: text)
                saveRecording(session?.close())
                session = nil
                open(source)
            } catch {
                dispatch(.failed("“\(text)” is not an input: \(error)"))
            }
        case .armVoiceActivation(let parameters):
            armVoiceActivation(parameters)
        case .disarmVoiceActivation:
            session?.disarmVoice()
        case .play(let memo):
            play(memo)
        case .pausePlayback:
            playback?.pause()
        case .resumePlayback:
            resumePlayback()
        case .seekPlayback(let seconds):
            playback?.seek(by: seconds)
        case .stopPlayback:
            stopPlayback()
        case .quit:
            finish()
        }
    }

    // MARK: Playback

    private func play(_ memo: Memo) {
        stopPlayback()
        playbackGeneration += 1
        let generation = playbackGeneration
        do {
            let started = try PlaybackSession(memo: memo, device: playbackDevice, queue: queue) { [self] error in
                playbackEnded(generation: generation, error: error)
            }
            playback = started
            dispatch(.playbackStarted(
                memoID: memo.id, title: memo.title, duration: started.player.duration, channels: started.player.numberOfChannels))
        } catch {
            dispatch(.playbackFailed(PlaybackSession.failureMessage(error, title: memo.title, device: playbackDevice)))
        }
        scheduleTimer()
    }

    private func resumePlayback() {
        guard let playback else { return }
        do {
            try playback.resume()
        } catch {
            stopPlayback()
            dispatch(.playbackFailed(PlaybackSession.failureMessage(error, title: playback.memo.title, device: playbackDevice)))
        }
    }

    private func stopPlayback() {
        playback?.stop()
        playback = nil
        scheduleTimer()
    }

    /// The player ended by itself (on the app's queue); events of a replaced player are ignored.
    private func playbackEnded(generation: Int, error: PlayerError?) {
        guard generation == playbackGeneration, let ended = playback else { return }
        stopPlayback()
        if let error {
            dispatch(.playbackFailed("Playback of “\(ended.memo.title)” stopped: \(error.message)."))
        } else {
            dispatch(.playbackFinished)
        }
        render()
    }

    // MARK: Recording

    private func startRecording(title: String) {
        guard let session else { return }
        let memo: MemoRecording
        do {
            memo = try store.beginRecording(title: title, settings: session.settings, created: Date())
        } catch {
            dispatch(.failed("Cannot start recording: \(error)"))
            return
        }
        do {
            try session.startRecording(into: memo, queue: queue) { [self] error in
                saveRecording(self.session?.stopRecording(), stoppedBy: error.message)
            }
            dispatch(.recordingStarted(title: title))
        } catch {
            store.abandonRecording(memo)
            dispatch(.failed("Cannot start recording: \(error.message)"))
        }
    }

    private func armVoiceActivation(_ parameters: VoiceParameters) {
        guard let session else { return }
        do {
            let library = try store.openConnection()
            try session.armVoice(parameters, library: library, queue: queue) { [self] event in
                switch event {
                case .saved(let memo):
                    dispatch(.voiceTakeSaved(memo))
                    reloadLibrary()
                case .failed(let message):
                    dispatch(.failed(message))
                }
                render()
            }
        } catch let error as RecorderError {
            dispatch(.failed("Cannot turn on voice activation: \(error.message)"))
        } catch {
            dispatch(.failed("Cannot turn on voice activation: \(error)"))
        }
    }

    /// Finishes the memo in the library. A recording that stopped on an error (`reason`) keeps
    /// its cause on the status line instead of opening the title prompt.
    private func saveRecording(_ recording: InputSession.Recording?, stoppedBy cause: String? = nil) {
        guard let recording else { return }
        // The status line has one or two rows: the memo's file name says enough, not its path.
        let path = recording.recorder.url
        let reason = cause?.replacingOccurrences(of: path, with: (path as NSString).lastPathComponent)
        do {
            let memo = try store.finishRecording(recording.memo, statistics: recording.recorder.measuredStatistics)
            dispatch(reason.map { .recordingStoppedOnError(memo, reason: $0) } ?? .recordingSaved(memo))
        } catch {
            let cause = reason.map { "Recording stopped: \($0). " } ?? ""
            dispatch(.failed("\(cause)The recording is in \(recording.recorder.url) but could not be added: \(error)"))
        }
        reloadLibrary()
    }

    private func libraryChange(_ change: () throws -> Void) {
        do {
            try change()
        } catch {
            dispatch(.failed("\(error)"))
        }
        reloadLibrary()
    }

    private func reloadLibrary() {
        do {
            let memos = try store.memos(excluding: session?.recording?.recorder.url)
            dispatch(.libraryLoaded(memos: memos, deleted: try store.deletedMemos()))
        } catch {
            dispatch(.failed("\(error)"))
        }
    }

    private func open(_ source: InputSource) {
        do {
            let opened = try InputSession(source: source, settings: settings)
            session = opened
            dispatch(.inputOpened(opened.description))
        } catch {
            session = nil
            dispatch(.inputFailed(InputChoices.openFailure(source, error)))
        }
        scheduleTimer()
    }

    private func inputEnded(_ ended: InputSession) {
        let reason = ended.engine.error.map { "\($0.message)" } ?? "it ran out"
        saveRecording(ended.close())
        session = nil
        dispatch(.inputFailed("The input \(ended.source) stopped: \(reason). Press i to choose an input."))
    }

    /// Saves any recording, closes the input and lets `runUntilQuit` return.
    private func finish() {
        guard !isFinished else { return }
        stopPlayback()
        saveRecording(session?.close())
        session = nil
        isFinished = true
        timer?.cancel()
        keySource?.cancel()
        terminal.end()
        finished.signal()
    }
}
