import Audio
import Dispatch
import Foundation
import Interface
import MemoLibrary
import Metering
import RuntimeSupport
import SoundFiles
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
                        fatalFailure = error
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
        case .undoRename(let id, let title, let replacing):
            libraryChange(tracked: tracked) { store in try store.rename(id, to: title, ifTitleIs: replacing) }
        case .deleteMemo(let id):
            transcription?.cancel(memo: id)
            libraryChange(tracked: tracked) { store in try store.delete(id) }
        case .restoreMemo(let id):
            libraryChange(tracked: tracked) { [transcription] store in
                try store.restore(id)
                transcription?.restored(memo: id)
            }
        case .purgeMemo(let id):
            transcription?.cancel(memo: id)
            libraryChange(tracked: tracked) { store in try store.purge(id) }
        case .exportMemo(let id, let path):
            let home = environment["HOME"]
            onRunner(tracked: tracked) { [self] effects in
                let answer: Action
                do throws(MemoLibraryError) {
                    guard let store = effects.store else { throw .notFound(reference: String(id), inRecentlyDeleted: false) }
                    // The conversion can take a core for a minute: it gives way to the screen.
                    let target = Self.expandingHome(path, home: home)
                    let written = try BackgroundPriority.heavy.run {
                        Result { () throws(MemoLibraryError) in try store.export(id, to: target) }
                    }.get()
                    answer = .notice("Exported “\(written.title)” to \(written.path).")
                } catch .destinationExists(let existing) {
                    answer = .failed("Not exported: \(existing) already exists. Choose another name (E).")
                } catch {
                    answer = .failed("Cannot export: \(error)")
                }
                return { [self] in dispatch(answer) }
            }
        case .editMemo(let request):
            edit(request, tracked: tracked)
        case .undoEdit(let originalID, let madeIDs):
            libraryChange(tracked: tracked) { store in try store.undoEdit(originalID: originalID, madeIDs: madeIDs) }
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
        case .listOutputs:
            let current = playbackDevice
            onRunner(tracked: tracked) { [self] _ in
                let choices = InputChoices.outputs(current: current)
                return { [self] in dispatch(.outputsListed(choices)) }
            }
        case .selectOutput(let device):
            playbackDevice = device
        case .selectInput(let text):
            selectInput(text, tracked: tracked)
        case .armVoiceActivation(let parameters):
            armVoiceActivation(parameters)
        case .setVoiceReplay(let replay):
            session?.setVoiceReplay(replay)
        case .disarmVoiceActivation:
            voiceEpoch += 1
            let armed = session?.detachVoice()
            onRunner(tracked: false) { _ in
                armed?.stop()
                return {}
            }
        case .setNoiseAlert(let parameters):
            // Attaching a tap takes the engine's lock only: quick enough for the UI queue.
            session?.setNoiseAlert(parameters)
            if let session, parameters != nil {
                let input = Double(session.engine.capturedFrames) / Double(session.engine.format.sampleRate)
                eventLog?.note(String(format: "noise_alert_on input=%.3f", input))
            }
        case .ringBell:
            ringBell()
        case .changeCaptureGain(let change):
            captureGain(change, tracked: tracked)
        case .readCaptureGain:
            captureGain(nil, tracked: tracked)
        case .play(let memo, let start):
            play(memo, from: start, tracked: tracked)
        case .pausePlayback:
            playback?.pause()
        case .resumePlayback:
            resumePlayback()
        case .seekPlayback(let seconds):
            playback?.seek(by: seconds)
        case .jumpPlayback(let seconds):
            playback?.jump(to: seconds)
        case .adjustPlayback(let settings):
            adjustPlayback(settings)
        case .addMarker(let memoID, let time):
            addMarker(memoID: memoID, time: time)
        case .markRecording:
            // The frame being captured now, read here rather than at the last tick.
            guard let recording = session?.recording else { return }
            addMarker(memoID: recording.memo.memo.id, time: recording.recorder.currentTime)
        case .stopPlayback:
            stopPlayback()
        case .playStream(let url):
            playStream(url)
        case .stopStream:
            stopStream()
        case .recordStream(let url, let title):
            selectInput("url:" + url, tracked: tracked, thenRecording: title)
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

    /// `~/…` in a typed path as the shell would read it; anything else as typed.
    static func expandingHome(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty, path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }

    /// `.workProgress` for the work running now, from the runner; nothing for untracked work.
    func progressReporter(_ tracked: Bool) -> @Sendable (Double?, String) -> Void {
        guard tracked else { return { _, _ in } }
        return { [self] fraction, stage in
            queue.async { [self] in dispatch(.workProgress(fraction: fraction, stage: stage)) }
        }
    }

    func libraryChange(tracked: Bool, _ change: @escaping @Sendable (MemoStore) throws -> Void) {
        onRunner(tracked: tracked) { [self] effects in
            var actions = effects.refresh().notes
            if let store = effects.store {
                do {
                    try change(store)
                } catch MemoLibraryError.titleChangedElsewhere(let memo, let expected) {
                    actions.append(.failed(UndoEntry.changedElsewhere(expected, now: memo.title)))
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
            let notes = effects.refresh().notes
            let started: InputSession.Recording
            do throws(AppEffects.StartFailure) {
                started = try effects.beginRecording(title: title, on: target, eventQueue: queue) { [self] error, path in
                    recordingFailed(path: path, error: error)
                }
            } catch {
                return { [self] in (notes + [.failed(error.message)]).forEach(dispatch) }
            }
            return { [self] in
                notes.forEach(dispatch)
                // A quit or an input switch that came meanwhile has already been queued
                // to stop it; the tick must not show it as running.
                guard epoch == recordingEpoch, session === target else { return }
                target.attach(started)
                dispatch(.recordingStarted(title: title, memoID: started.memo.memo.id))
            }
        }
    }

    /// The recorder stopped on an error (a full disk): what it wrote is saved, the cause shown.
    func recordingFailed(path: String, error: RecorderError) {
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

    /// Arms voice activation on the runner (opening its library connection and attaching its
    /// detector may wait); one armed before is stopped there first, its take kept. The
    /// answer is dropped (and the detector stopped) if `v` disarmed, the input changed or the
    /// app quit meanwhile.
    private func armVoiceActivation(_ parameters: VoiceParameters) {
        guard let session else { return }
        voiceEpoch += 1
        let epoch = voiceEpoch
        let old = session.detachVoice()
        let environment = environment
        let device = playbackDevice
        let eventLog = eventLog
        let queue = queue
        onRunner(tracked: false) { [self] _ in
            old?.stop()
            let armed: AppVoiceActivation
            do {
                let library = try MemoStore.openConnection(environment: environment)
                armed = try session.makeVoice(
                    parameters, library: library, playbackDevice: device, eventLog: eventLog, queue: queue
                ) { [self] event in
                    switch event {
                    case .saved(let memo):
                        dispatch(.voiceTakeSaved(MemoRow(memo)))
                    case .failed(let message):
                        dispatch(.failed(message))
                    }
                    render()
                }
            } catch let error as RecorderError {
                return { [self] in dispatch(.failed("Cannot turn on voice activation: \(error.message)")) }
            } catch {
                return { [self] in dispatch(.failed("Cannot turn on voice activation: \(error)")) }
            }
            return { [self] in
                guard voiceEpoch == epoch, self.session === session, !isFinishing else {
                    onRunner(tracked: false) { _ in
                        armed.stop()
                        return {}
                    }
                    return
                }
                session.attachVoice(armed)
            }
        }
    }

    // MARK: Capture gain

    /// Changes (or only reads, `change` nil) the open input's capture control on the runner:
    /// opening a mixer talks to the card or the sound server, which may take its time.
    private func captureGain(_ change: CaptureGainChange?, tracked: Bool) {
        guard let device = session?.alsaDevice, let source = session?.source else {
            if tracked { onRunner(tracked: true) { _ in {} } }
            return
        }
        onRunner(tracked: tracked) { [self] _ in
            let action = CaptureGainEdge.perform(change, device: device, source: source)
            return { [self] in dispatch(action) }
        }
    }

    // MARK: Inputs

    /// Closes the input (saving its recording) and opens `text`; with `thenRecording`, starts
    /// recording it into a memo of that title in the same job (`R`: the stream as the input).
    func selectInput(_ text: String, tracked: Bool, thenRecording title: String? = nil) {
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
                let recording = title.map { beginRecording($0, on: opened, effects) }
                return { [self] in
                    // A recording begun is saved by the quit, which comes behind this job.
                    guard !isFinishing || recording?.started != nil else {
                        opened.close()
                        return
                    }
                    session = opened
                    scheduleTimer()
                    saved.forEach(dispatch)
                    dispatch(.inputOpened(opened.description))
                    guard let title, let recording else { return }
                    recording.notes.forEach(dispatch)
                    if let started = recording.started {
                        opened.attach(started)
                        dispatch(.recordingStarted(title: title, memoID: started.memo.memo.id))
                    }
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

    /// Plays the memo `row` shows: its file as the index has it now (a row names the memo, it
    /// does not open a file; the file may have moved since the list was read).
    private func play(_ row: MemoRow, from start: Double, tracked: Bool) {
        let old = playback
        playback = nil
        playbackGeneration += 1
        let generation = playbackGeneration
        let device = playbackDevice
        scheduleTimer()
        onRunner(tracked: tracked) { [self] effects in
            old?.stop()
            let found: Memo?
            do throws(MemoLibraryError) {
                found = try effects.store?.memo(id: row.id)
            } catch {
                return { [self] in dispatch(.playbackFailed("Cannot play “\(row.title)”: \(error).")) }
            }
            guard let memo = found else {
                return { [self] in dispatch(.playbackFailed("Cannot play “\(row.title)”: it is no longer in the library.")) }
            }
            do throws(PlayerError) {
                let started = try PlaybackSession(
                    memo: memo, from: start, device: device, settings: effects.playbackSettings, queue: queue
                ) { [self] error in
                    playbackEnded(generation: generation, error: error)
                }
                effects.playing = started
                let markers = (try? effects.store?.markers(ofMemo: row.id)) ?? []
                return { [self] in
                    guard generation == playbackGeneration, !isFinishing else {
                        started.stop()
                        return
                    }
                    playback = started
                    scheduleTimer()
                    dispatch(.playbackStarted(
                        memoID: row.id, title: row.title, duration: started.player.duration,
                        channels: started.player.numberOfChannels))
                    dispatch(.markersLoaded(memoID: row.id, times: markers.map(\.time)))
                }
            } catch {
                return { [self] in
                    dispatch(.playbackFailed(PlaybackSession.failureMessage(error, title: row.title, device: device)))
                }
            }
        }
    }

    /// The runner sets them on the player it started last (in order behind that start, so a
    /// key pressed while the memo was opening is not lost) and keeps them for the next.
    private func adjustPlayback(_ settings: PlaybackSettings) {
        onRunner(tracked: false) { [self] effects in
            effects.playbackSettings = settings
            do throws(PlayerError) {
                try effects.playing?.adjust(settings)
                return {}
            } catch {
                let title = effects.playing?.memo.title ?? "the memo"
                return { [self] in dispatch(.failed("Cannot play “\(title)” that way: \(error.message).")) }
            }
        }
    }

    /// Stores a marker in the index, on the runner (a kill -9 after it keeps it).
    private func addMarker(memoID: Int64, time: Double) {
        onRunner(tracked: false) { [self] effects in
            do throws(MemoLibraryError) {
                try effects.store?.addMarker(Marker(time: time), toMemo: memoID)
                return {}
            } catch {
                return { [self] in dispatch(.failed("Cannot keep the marker: \(error)")) }
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
        onRunner(tracked: false) { effects in
            old.stop()
            if effects.playing === old { effects.playing = nil }
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
    /// Where the recording in progress began: the store's generation and the folder then.
    private var recordingBegun: (generation: Int, folder: FileIdentity?)?
    /// The last failure of `poll()`, said once rather than every second.
    private var pollFailure: String?
    /// The player the runner started last, until it is stopped: where `adjustPlayback` goes.
    var playing: PlaybackSession?
    /// The latest `adjustPlayback`: every memo plays with them.
    var playbackSettings = PlaybackSettings()

    init(environment: [String: String]) {
        self.environment = environment
    }

    /// Opens the library, running its start-up maintenance (recovery after kill -9, adoption,
    /// the 30-day purge): seconds, after a crash during a long recording.
    func openLibrary() throws(MemoLibraryError) {
        store = try MemoStore(environment: environment)
    }

    /// Checks the library against other processes (`MemoStore.refresh()`): the lists when
    /// another process changed the index, the library opened again (and said so) when its
    /// index was replaced or its folder deleted. Run every second by the loop's library poll.
    func poll() -> [Action] {
        guard store != nil else { return [] }
        let (notes, changed) = refresh()
        return changed ? notes + reload() : notes
    }

    /// Before the library is used: opens it again if its index or folder was replaced (the
    /// words for the status line); `changed` when the lists should be read again.
    func refresh() -> (notes: [Action], changed: Bool) {
        guard let store else { return ([], false) }
        do {
            let found = try store.refresh()
            pollFailure = nil
            switch found {
            case .unchanged: return ([], false)
            case .changedElsewhere: return ([], true)
            case .reopened(let onDisk): return ([.failed(Self.reopenedMessage(onDisk, folder: store.folder, recording: recording != nil))], true)
            }
        } catch {
            let message = "The library changed under the app and could not be opened again: \(error)"
            defer { pollFailure = message }
            return (pollFailure == message ? [] : [.failed(message)], false)
        }
    }

    /// What the status line says when the library had to be opened again.
    static func reopenedMessage(_ onDisk: LibraryOnDisk, folder: String, recording: Bool) -> String {
        switch onDisk {
        case .asOpened:
            return "The library was opened again."
        case .indexReplaced:
            return "The memo index in \(folder) was replaced by another process (a damaged one is moved aside and rebuilt); the app now uses the new one."
        case .folderGone:
            let then = recording ? " The recording in progress is saved there when it stops." : ""
            return "The library folder \(folder) was deleted by another process; it is made again, empty.\(then)"
        }
    }

    /// The library's lists as an action (or the failure in words).
    func reload() -> [Action] {
        guard let store else { return [] }
        do {
            let memos = try store.memos(excluding: recording?.recorder.url)
            return [.libraryLoaded(memos: memos.map(MemoRow.init), deleted: try store.deletedMemos().map(MemoRow.init))]
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
            recordingBegun = (store.generation, store.folderIdentity)
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
    /// keeps it and `finishRecording` writes it into the file. Not while the library was
    /// replaced under the recording: the memo's id is another index's until it is rebound.
    func saveRecording(stoppedBy cause: String? = nil, progress: (Double?, String) -> Void) -> [Action] {
        guard let recording else { return [] }
        self.recording = nil
        let begun = recordingBegun
        recordingBegun = nil
        progress(nil, "finishing the file")
        let path = recording.recorder.url
        // The folder deleted under the recording (its file has no name any more): hold the file
        // open so that what the recorder finishes can be copied back into the folder made again.
        let folderWasDeleted = store.map { begun?.folder != nil && FileIdentity(of: $0.folder) != begun?.folder } ?? false
        let hold = folderWasDeleted ? DeletedFileHold(path: path) : nil
        var actions: [Action] = folderWasDeleted ? refresh().notes : []
        let recorder = recording.recorder
        let sameIndex = begun.map { $0.generation == store?.generation } ?? true
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            recorder.stop()
            stopped.signal()
        }
        let encoding = "encoding \(recorder.settings.format.displayName)"
        repeat {
            if sameIndex { actions += storeOfferedTitle(forMemo: recording.memo.memo.id) }
            if let fraction = recorder.finishingProgress {
                progress(fraction, encoding)
            } else {
                progress(nil, "finishing the file")
            }
        } while stopped.wait(timeout: .now() + .milliseconds(100)) == .timedOut
        // The status line has one or two rows: the memo's file name says enough, not its path.
        let reason = cause?.replacingOccurrences(of: path, with: (path as NSString).lastPathComponent)
        guard let store else {
            return [.failed("The recording is in \(path) but the library is not open.")]
        }
        var memoRecording = recording.memo
        do {
            if let begun, begun.generation != store.generation { memoRecording = try store.rebind(memoRecording) }
        } catch {
            return actions + [.failed("The recording is in \(path) but could not be added: \(error)")] + reload()
        }
        actions += storeOfferedTitle(forMemo: memoRecording.memo.id)
        if recording.recorder.recordedFrames == 0 || recording.recorder.statistics.framesWritten == 0 {
            // Nothing captured or nothing written (a full disk from the start, `s` at once): a
            // 0-frame memo would only be listed as damaged. Leave nothing, and say so.
            _ = try? recording.recorder.deleteRecording()
            store.abandonRecording(memoRecording)
            let why = reason.map { "Recording stopped: \($0); nothing" } ?? "Nothing"
            return actions + [.recordingDiscarded(message: "\(why) was recorded, so no memo was kept.")] + reload()
        }
        if folderWasDeleted, !FileManager.default.fileExists(atPath: path) {
            do {
                guard let hold else { throw MemoLibraryError.file(path: path, reason: "no longer open in this process") }
                progress(nil, "copying it back into the library")
                try hold.restore()
            } catch {
                store.abandonRecording(memoRecording)
                return actions + [.recordingDiscarded(message: "The library folder \(store.folder) was deleted while recording, and the recording with it (\(error)): nothing was saved.")] + reload()
            }
        }
        if case .soundFile(let full)? = recording.recorder.error?.cause, full.waitsForRoom,
            SoundFileRecovery.needsEncoding(path: path)
        {
            // The disk filled behind the encoder: the whole recording is in its intermediate,
            // and the memo waits for room to be encoded (never "gone": its file is not made yet).
            let frames = recording.recorder.statistics.framesWritten
            let recorded = DisplayFormat.elapsedTime(seconds: Double(frames) / Double(recording.recorder.settings.sampleRate))
            do {
                let memo = try store.finishRecording(memoRecording, statistics: nil)
                let why = WaitingForRoomText.recordingKept(
                    cause: full, recorded: recorded, format: recording.recorder.settings.format.displayName, memo: true,
                    intermediate: "")
                actions.append(.recordingStoppedOnError(MemoRow(memo), reason: why))
            } catch {
                actions.append(.failed("The recording is kept whole but could not be added: \(error)"))
            }
            return actions + reload()
        }
        guard FileManager.default.fileExists(atPath: path) else {
            // Deleted by someone else: never "Saved" for a file that is not there.
            store.abandonRecording(memoRecording)
            return actions + [.recordingDiscarded(message: "The recording's file \(path) is gone (deleted by another process): nothing was saved.")] + reload()
        }
        progress(nil, "adding it to the library")
        do {
            let memo = try store.finishRecording(memoRecording, statistics: recording.recorder.measuredStatistics)
            // A folder deleted under it is said instead of opening the title prompt (which
            // would cover the status line).
            let deleted = folderWasDeleted ? "the library folder \(store.folder) was deleted while recording (it is made again)" : nil
            let stopped = [reason, deleted].compactMap { $0 }.joined(separator: "; ")
            let row = MemoRow(memo)
            actions.append(stopped.isEmpty ? .recordingSaved(row) : .recordingStoppedOnError(row, reason: stopped))
        } catch {
            let cause = reason.map { "Recording stopped: \($0). " } ?? ""
            actions.append(.failed("\(cause)The recording is in \(path) but could not be added: \(error)"))
        }
        return actions + reload()
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
