import Audio
import Dispatch
import Foundation
import Interface
import MemoLibrary
import Synchronization

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
            let saving = session?.detachRecording()?.memo.memo.id
            savingMemoID = saving
            let progress = progressReporter(tracked)
            onRunner(tracked: tracked) { [self] effects in
                let saved = effects.saveRecording(progress: progress)
                return { [self] in
                    if savingMemoID == saving { savingMemoID = nil }
                    saved.forEach(dispatch)
                }
            }
        case .renameMemo(let id, let title) where id == savingMemoID:
            // The memo being saved: the runner is busy with it, so the title goes beside its
            // queue and the save stores it within 0.1 s; this job applies it only if the
            // save had already finished the memo (then as an ordinary rename).
            effects.offerTitle(title, forMemo: id)
            libraryChange(tracked: tracked) { [effects] store in
                if let title = effects.takeOfferedTitle(forMemo: id) { try store.rename(id, to: title) }
            }
        case .renameMemo(let id, let title):
            libraryChange(tracked: tracked) { store in try store.rename(id, to: title) }
        case .deleteMemo(let id):
            libraryChange(tracked: tracked) { store in try store.delete(id) }
        case .restoreMemo(let id):
            libraryChange(tracked: tracked) { store in try store.restore(id) }
        case .purgeMemo(let id):
            libraryChange(tracked: tracked) { store in try store.purge(id) }
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
        case .play(let memo):
            play(memo, tracked: tracked)
        case .pausePlayback:
            playback?.pause()
        case .resumePlayback:
            resumePlayback()
        case .seekPlayback(let seconds):
            playback?.seek(by: seconds)
        case .stopPlayback:
            stopPlayback()
        case .quit:
            // Behind everything already asked of the runner: a save in progress completes;
            // an input still opening is abandoned (it waits for a server that may not answer).
            isFinishing = true
            effects.abandonOpening()
            onRunner(tracked: false) { [self] effects in
                // A recording whose start answered after the quit was asked for.
                let saved = effects.saveRecording { _, _ in }
                return { [self] in
                    saved.forEach(dispatch)
                    finishNow()
                }
            }
        }
    }

    /// `.workProgress` for the work running now, from the runner; nothing for untracked work.
    private func progressReporter(_ tracked: Bool) -> @Sendable (Double?, String) -> Void {
        guard tracked else { return { _, _ in } }
        return { [self] fraction, stage in
            queue.async { [self] in dispatch(.workProgress(fraction: fraction, stage: stage)) }
        }
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
                dispatch(.recordingStarted(title: title, memoID: started.memo.memo.id))
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
            let saved = effects.saveRecording(stoppedBy: error.message) { _, _ in }
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
            let saved = effects.saveRecording { _, _ in }
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
                let opened = try effects.openBounded { () throws(RecorderError) in
                    try InputSession(source: source, settings: settings)
                }
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
                let message =
                    effects.openGaveUp ? InputChoices.noAnswer(source, after: AppEffects.inputOpenLimit)
                    : InputChoices.openFailure(source, error)
                let answer = saved + [.inputFailed(message)]
                return { [self] in answer.forEach(dispatch) }
            }
        }
    }

    // MARK: Playback

    private func play(_ memo: Memo, tracked: Bool) {
        let old = playback
        playback = nil
        playbackGeneration += 1
        let generation = playbackGeneration
        let device = playbackDevice
        scheduleTimer()
        onRunner(tracked: tracked) { [self] _ in
            old?.stop()
            do throws(PlayerError) {
                let started = try PlaybackSession(memo: memo, device: device, queue: queue) { [self] error in
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
    /// Titles typed for a memo while the runner saves it (set on the UI queue, taken on the runner).
    private let offeredTitles = Mutex<[Int64: String]>([:])
    /// How an input open in progress is going: asked every 100 ms by `ALSAPCM.openInterruption`.
    private let opening = Mutex(OpenWatch())

    private struct OpenWatch {
        /// When the runner began opening an input (`CLOCK_MONOTONIC` seconds), while it does.
        var since: Double?
        /// The open waited `inputOpenLimit` and was given up.
        var gaveUp = false
        /// The app is quitting: an open still waiting is given up at once.
        var quitting = false
    }

    /// How long the app waits for an input to open. A healthy one opens in milliseconds
    /// (a PulseAudio stream in 1–2 s while another plays); the pulse plugin waits 30 s for
    /// a server that does not answer (a stopped one), and the app would say nothing useful
    /// meanwhile.
    static let inputOpenLimit = 8.0
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
    ///
    /// The recorder stops on a thread of its own (its writer encodes what the MP3 or Ogg
    /// Vorbis encoder had not caught up with: minutes after an hour from an unpaced input);
    /// meanwhile, every 0.1 s, this reports how far the encoding is and stores a title the
    /// prompt gave the memo (`offerTitle`) in the index, where a kill -9 or a failed save
    /// keeps it and `finishRecording` writes it into the file.
    func saveRecording(stoppedBy cause: String? = nil, progress: (Double?, String) -> Void) -> [Action] {
        guard let recording else { return [] }
        self.recording = nil
        let recorder = recording.recorder
        let id = recording.memo.memo.id
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            recorder.stop()
            stopped.signal()
        }
        var failures: [Action] = []
        let encoding = "encoding \(recorder.settings.format.displayName)"
        repeat {
            failures += storeOfferedTitle(forMemo: id)
            if let fraction = recorder.finishingProgress {
                progress(fraction, encoding)
            } else {
                progress(nil, "finishing the file")
            }
        } while stopped.wait(timeout: .now() + .milliseconds(100)) == .timedOut
        failures += storeOfferedTitle(forMemo: id)
        // The status line has one or two rows: the memo's file name says enough, not its path.
        let path = recording.recorder.url
        let reason = cause?.replacingOccurrences(of: path, with: (path as NSString).lastPathComponent)
        var actions: [Action]
        if let store {
            progress(nil, "adding it to the library")
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
        return failures + actions + reload()
    }

    // MARK: Titles given while saving

    /// Hands the runner a title for memo `id` while it saves it (from the UI queue).
    func offerTitle(_ title: String, forMemo id: Int64) {
        offeredTitles.withLock { $0[id] = title }
    }

    /// The title offered for memo `id` and not yet stored, taken.
    func takeOfferedTitle(forMemo id: Int64) -> String? {
        offeredTitles.withLock { $0.removeValue(forKey: id) }
    }

    /// Stores an offered title in the index (the memo is still `recording`: the index only).
    private func storeOfferedTitle(forMemo id: Int64) -> [Action] {
        guard let store, let title = takeOfferedTitle(forMemo: id) else { return [] }
        do {
            try store.rename(id, to: title)
            return []
        } catch {
            return [.failed("Cannot give the memo the title “\(title)”: \(error)")]
        }
    }

    // MARK: Opening inputs

    /// Runs `open` (an input's `snd_pcm_open`, which the pulse plugin makes wait 30 s for a
    /// server that does not answer) and gives it up after `inputOpenLimit`, or at once when
    /// the app quits (`ALSAPCM.openInterruption` asks `shouldGiveUpOpening` every 100 ms).
    func openBounded<T>(_ open: () throws(RecorderError) -> T) throws(RecorderError) -> T {
        opening.withLock {
            $0.since = Double(MonotonicClock.system.nanoseconds()) / 1e9
            $0.gaveUp = false
        }
        defer { opening.withLock { $0.since = nil } }
        return try open()
    }

    /// Whether the last `openBounded` was given up after `inputOpenLimit`.
    var openGaveUp: Bool {
        opening.withLock { $0.gaveUp }
    }

    /// Asked by `ALSAPCM.openInterruption` while a device opens (any thread).
    func shouldGiveUpOpening() -> Bool {
        opening.withLock { watch in
            if watch.quitting { return true }
            guard let since = watch.since, Double(MonotonicClock.system.nanoseconds()) / 1e9 - since >= Self.inputOpenLimit else { return false }
            watch.gaveUp = true
            return true
        }
    }

    /// The app is quitting: an open still waiting is given up (from the UI queue).
    func abandonOpening() {
        opening.withLock { $0.quitting = true }
    }
}
