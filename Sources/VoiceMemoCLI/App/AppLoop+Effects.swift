import Audio
import Dispatch
import Foundation
import Interface
import MemoLibrary

/// The effects the reducer returns, performed: the quick ones here on the UI queue, the
/// slow ones on the effect runner (`onRunner`), each answering with actions.
extension AppLoop {
    func perform(_ effect: Effect, tracked: Bool) {
        switch effect {
        case .openLibrary:
            onRunner(tracked: tracked) { [self] effects in
                do throws(MemoLibraryError) {
                    try effects.openLibrary()
                } catch {
                    return { [self] in
                        fatalFailure = CommandFailure(error.description)
                        finishNow()
                    }
                }
                let loaded = effects.reload()
                return { [self] in loaded.forEach(dispatch) }
            }
        case .reloadLibrary:
            onRunner(tracked: tracked) { [self] effects in
                let loaded = effects.reload()
                return { [self] in loaded.forEach(dispatch) }
            }
        case .startRecording(let title):
            startRecording(title: title, tracked: tracked)
        case .pauseRecording:
            session?.recording?.recorder.pause()
        case .resumeRecording:
            do {
                try session?.recording?.recorder.record()
            } catch {
                dispatch(.failed("Cannot resume recording: \(error.message)"))
            }
        case .stopRecording:
            // The tick stops reading the recorder now; the runner stops it (joining its threads).
            recordingEpoch += 1
            _ = session?.detachRecording()
            let progress = progressReporter(tracked)
            onRunner(tracked: tracked) { [self] effects in
                let saved = effects.saveRecording(progress: progress)
                return { [self] in saved.forEach(dispatch) }
            }
        case .renameMemo(let id, let title):
            libraryChange(tracked: tracked) { store in try store.rename(id, to: title) }
        case .deleteMemo(let id):
            transcription?.cancel(memo: id)
            libraryChange(tracked: tracked) { store in try store.delete(id) }
        case .restoreMemo(let id):
            libraryChange(tracked: tracked) { store in try store.restore(id) }
        case .purgeMemo(let id):
            transcription?.cancel(memo: id)
            libraryChange(tracked: tracked) { store in try store.purge(id) }
        case .searchTranscripts(let query):
            onRunner(tracked: tracked) { [self] effects in
                let answer: Action
                do {
                    answer = .transcriptMatchesFound(query: query, try effects.store?.transcriptMatches(query) ?? [])
                } catch {
                    answer = .failed("Cannot search the transcripts: \(error)")
                }
                return { [self] in dispatch(answer) }
            }
        case .loadTranscript(let id):
            onRunner(tracked: tracked) { [self] effects in
                let answer: Action
                do {
                    answer = .transcriptLoaded(memoID: id, try effects.store?.transcriptContent(of: id) ?? .missing)
                } catch {
                    answer = .transcriptLoaded(memoID: id, .failed("the transcript cannot be read: \(error)"))
                }
                return { [self] in dispatch(answer) }
            }
        case .transcribeNewMemos:
            transcribeNewMemos()
        case .listInputs:
            let current = session?.source ?? initialSource
            onRunner(tracked: tracked) { [self] _ in
                let choices = InputChoices.available(current: current)
                return { [self] in dispatch(.inputsListed(choices)) }
            }
        case .selectInput(let text):
            selectInput(text, tracked: tracked)
        case .armVoiceActivation(let parameters):
            armVoiceActivation(parameters)
        case .disarmVoiceActivation:
            session?.disarmVoice()
        case .play(let memo, let start):
            play(memo, from: start, tracked: tracked)
        case .pausePlayback:
            playback?.pause()
        case .resumePlayback:
            resumePlayback()
        case .seekPlayback(let seconds):
            playback?.seek(by: seconds)
        case .stopPlayback:
            stopPlayback()
        case .quit:
            // Behind everything already asked of the runner: a save in progress completes.
            isFinishing = true
            onRunner(tracked: false) { [self] effects in
                // A recording whose start answered after the quit was asked for.
                let saved = effects.saveRecording { _ in }
                return { [self] in
                    saved.forEach(dispatch)
                    finishNow()
                }
            }
        }
    }

    /// `.workProgress` for the work running now, from the runner; nothing for untracked work.
    private func progressReporter(_ tracked: Bool) -> @Sendable (String) -> Void {
        guard tracked else { return { _ in } }
        return { [self] stage in queue.async { [self] in dispatch(.workProgress(fraction: nil, stage: stage)) } }
    }

    private func libraryChange(tracked: Bool, _ change: @escaping @Sendable (MemoStore) throws -> Void) {
        onRunner(tracked: tracked) { [self] effects in
            var actions: [Action] = []
            if let store = effects.store {
                do {
                    try change(store)
                } catch {
                    actions.append(.failed("\(error)"))
                }
            }
            actions += effects.reload()
            let answer = actions
            return { [self] in answer.forEach(dispatch) }
        }
    }

    // MARK: Recording

    private func startRecording(title: String, tracked: Bool) {
        let target = session
        let epoch = recordingEpoch
        onRunner(tracked: tracked) { [self] effects in
            guard let target else {
                return { [self] in dispatch(.failed("No input is open, so there is nothing to record. Press i to choose an input.")) }
            }
            let started: InputSession.Recording
            do throws(AppEffects.StartFailure) {
                started = try effects.beginRecording(title: title, on: target, eventQueue: queue) { [self] error, path in
                    recordingFailed(path: path, error: error)
                }
            } catch {
                return { [self] in dispatch(.failed(error.message)) }
            }
            return { [self] in
                // A quit or an input switch that came meanwhile has already been queued
                // to stop it; the tick must not show it as running.
                guard epoch == recordingEpoch, session === target else { return }
                target.attach(started)
                dispatch(.recordingStarted(title: title))
            }
        }
    }

    /// The recorder stopped on an error (a full disk): what it wrote is saved, the cause shown.
    private func recordingFailed(path: String, error: RecorderError) {
        if session?.recording?.recorder.url == path {
            recordingEpoch += 1
            _ = session?.detachRecording()
        }
        onRunner(tracked: false) { [self] effects in
            guard effects.recording?.recorder.url == path else { return {} }
            let saved = effects.saveRecording(stoppedBy: error.message) { _ in }
            return { [self] in saved.forEach(dispatch) }
        }
    }

    private func armVoiceActivation(_ parameters: VoiceParameters) {
        guard let session else { return }
        do {
            let library = try MemoStore.openConnection(environment: environment)
            try session.armVoice(parameters, library: library, queue: queue) { [self] event in
                switch event {
                case .saved(let memo):
                    dispatch(.voiceTakeSaved(memo))
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

    // MARK: Inputs

    private func selectInput(_ text: String, tracked: Bool) {
        let old = session
        recordingEpoch += 1
        session = nil
        scheduleTimer()
        let initial = initialSource
        let settings = settings
        onRunner(tracked: tracked) { [self] effects in
            let saved = effects.saveRecording { _ in }
            old?.close()
            let source: InputSource
            if text == initial.description {
                source = initial
            } else {
                do {
                    source = try InputSource(parsing: text)
                } catch {
                    let answer = saved + [.failed("“\(text)” is not an input: \(error)")]
                    return { [self] in answer.forEach(dispatch) }
                }
            }
            do throws(RecorderError) {
                let opened = try InputSession(source: source, settings: settings)
                return { [self] in
                    guard !isFinishing else {
                        opened.close()
                        return
                    }
                    session = opened
                    scheduleTimer()
                    saved.forEach(dispatch)
                    dispatch(.inputOpened(opened.description))
                }
            } catch {
                let answer = saved + [.inputFailed(InputChoices.openFailure(source, error))]
                return { [self] in answer.forEach(dispatch) }
            }
        }
    }

    // MARK: Playback

    private func play(_ memo: Memo, from start: Double, tracked: Bool) {
        let old = playback
        playback = nil
        playbackGeneration += 1
        let generation = playbackGeneration
        let device = playbackDevice
        scheduleTimer()
        onRunner(tracked: tracked) { [self] _ in
            old?.stop()
            do throws(PlayerError) {
                let started = try PlaybackSession(memo: memo, from: start, device: device, queue: queue) { [self] error in
                    playbackEnded(generation: generation, error: error)
                }
                return { [self] in
                    guard generation == playbackGeneration, !isFinishing else {
                        started.stop()
                        return
                    }
                    playback = started
                    scheduleTimer()
                    dispatch(.playbackStarted(
                        memoID: memo.id, title: memo.title, duration: started.player.duration,
                        channels: started.player.numberOfChannels))
                }
            } catch {
                return { [self] in
                    dispatch(.playbackFailed(PlaybackSession.failureMessage(error, title: memo.title, device: device)))
                }
            }
        }
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

    /// Lets the player go at once; the runner stops it (joining its thread).
    private func stopPlayback() {
        guard let old = playback else { return }
        playback = nil
        scheduleTimer()
        onRunner(tracked: false) { _ in
            old.stop()
            return {}
        }
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
}

/// What the effect runner owns: its serial queue, the library (one SQLite connection,
/// used only on that queue) and the recording in progress as the runner knows it (the
/// tick reads the same recorder through `InputSession.recording`, which the UI queue sets
/// and clears). Every member is used on `queue` only.
final class AppEffects: @unchecked Sendable {
    let queue = DispatchQueue(label: "voicememo.effects")
    private let environment: [String: String]
    /// `nil` until `openLibrary` (the first thing the runner does, after opening the input).
    private(set) var store: MemoStore?
    private(set) var recording: InputSession.Recording?

    init(environment: [String: String]) {
        self.environment = environment
    }

    /// Opens the library, running its start-up maintenance (recovery after kill -9, adoption,
    /// the 30-day purge): seconds, after a crash during a long recording.
    func openLibrary() throws(MemoLibraryError) {
        store = try MemoStore(environment: environment)
    }

    /// The library's lists as an action (or the failure in words).
    func reload() -> [Action] {
        guard let store else { return [] }
        do {
            let memos = try store.memos(excluding: recording?.recorder.url)
            return [.libraryLoaded(memos: memos, deleted: try store.deletedMemos())]
        } catch {
            return [.failed("\(error)")]
        }
    }

    /// Creates the memo and starts its recorder on `session`'s engine.
    func beginRecording(
        title: String, on session: InputSession, eventQueue: DispatchQueue,
        onError: @escaping @Sendable (RecorderError, String) -> Void
    ) throws(StartFailure) -> InputSession.Recording {
        guard let store else { throw StartFailure(message: "Cannot start recording: the library is not open.") }
        let memo: MemoRecording
        do {
            memo = try store.beginRecording(title: title, settings: session.settings, created: Date())
        } catch {
            throw StartFailure(message: "Cannot start recording: \(error)")
        }
        do {
            let started = try session.makeRecording(into: memo, queue: eventQueue, onError: onError)
            recording = started
            return started
        } catch {
            store.abandonRecording(memo)
            throw StartFailure(message: "Cannot start recording: \(error.message)")
        }
    }

    struct StartFailure: Error {
        let message: String
    }

    /// Stops the recording in progress (the file is complete when the recorder returns) and
    /// finishes its memo, then lists the library. A recording that stopped on an error
    /// (`cause`) keeps its cause on the status line instead of opening the title prompt.
    func saveRecording(stoppedBy cause: String? = nil, progress: (String) -> Void) -> [Action] {
        guard let recording else { return [] }
        self.recording = nil
        progress("finishing the file")
        recording.recorder.stop()
        // The status line has one or two rows: the memo's file name says enough, not its path.
        let path = recording.recorder.url
        let reason = cause?.replacingOccurrences(of: path, with: (path as NSString).lastPathComponent)
        var actions: [Action]
        if let store {
            progress("adding it to the library")
            do {
                let memo = try store.finishRecording(recording.memo, statistics: recording.recorder.measuredStatistics)
                actions = [reason.map { .recordingStoppedOnError(memo, reason: $0) } ?? .recordingSaved(memo)]
            } catch {
                let cause = reason.map { "Recording stopped: \($0). " } ?? ""
                actions = [.failed("\(cause)The recording is in \(path) but could not be added: \(error)")]
            }
        } else {
            actions = [.failed("The recording is in \(path) but the library is not open.")]
        }
        return actions + reload()
    }
}
