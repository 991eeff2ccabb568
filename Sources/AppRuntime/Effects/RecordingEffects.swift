import Platform
import Audio
import Dispatch
import Foundation
import Interface
import MemoLibrary
import Metering
import SoundFiles
import Synchronization
import Vocabulary

/// The recording's effects (`r`, space, `s`, `c`; `Interface/Update`'s recording keys): the
/// memo and its recorder started and saved on the effect runner, paused and resumed here.
///
/// Its state is in two mutexes, one per side, so the compiler checks that nothing is shared
/// unlocked: the UI queue's (`UISide`: what ends recordings, counted, and the memo `s` is
/// saving) and the runner's (`RunnerSide`: the recording in progress as the runner knows it,
/// and where it began). Titles typed while a memo is saved cross between them (`offeredTitles`).
/// The tick reads the same recorder through `InputSession.recording`, which the UI queue sets
/// and clears.
final class RecordingEffects: Sendable {
    private struct UISide {
        /// Counts what ends recordings (stop, quit, input switch): a recording whose start
        /// answers after one of them is not shown as running (the stale-result guard).
        var epoch = 0
        /// The memo `s` is saving on the runner, until the save answers: a title given to it
        /// meanwhile goes beside the runner's queue (`offerTitle`).
        var savingMemoID: Int64?
    }

    private struct RunnerSide {
        var recording: InputSession.Recording?
        /// Where the recording in progress began: the store's generation and the folder then.
        var begun: (generation: Int, folder: FileIdentity?)?
    }

    private let ui = Mutex(UISide())
    private let runner = Mutex(RunnerSide())
    /// Titles typed for a memo while the runner saves it (set on the UI queue, taken on the runner).
    private let offeredTitles = Mutex<[Int64: String]>([:])

    func perform(_ effect: Effect, on loop: AppLoop, tracked: Bool) {
        switch effect {
        case .startRecording(let title):
            start(title: title, on: loop, tracked: tracked)
        case .pauseRecording:
            loop.session?.recording?.recorder.pause()
        case .resumeRecording:
            do {
                try loop.session?.recording?.recorder.record()
            } catch {
                loop.dispatch(.failed(.recordingResume(detail: error.message)))
            }
        case .stopRecording:
            stop(on: loop, tracked: tracked)
        case .markRecording(let label):
            // The frame being captured now, read here rather than at the last tick.
            guard let recording = loop.session?.recording else { return }
            loop.library.addMarker(
                memoID: recording.memo.memo.id, time: recording.recorder.currentTime, label: label, on: loop)
        default:
            assertionFailure("not a recording effect: \(effect)")
        }
    }

    /// Whatever the tick shows of a recording, from now on, is stale: a stop, a quit or an input
    /// switch (UI queue).
    func endShownRecordings() {
        ui.withLock { $0.epoch += 1 }
    }

    /// `s`: the tick stops reading the recorder now; the runner stops it (joining its threads)
    /// and finishes the memo.
    private func stop(on loop: AppLoop, tracked: Bool) {
        endShownRecordings()
        let saving = loop.session?.detachRecording()?.memo.memo.id
        ui.withLock { $0.savingMemoID = saving }
        let progress = loop.progressReporter(tracked)
        loop.onRunner(tracked: tracked) { [self] effects in
            let saved = save(effects, progress: progress)
            return { [self] in
                ui.withLock { if $0.savingMemoID == saving { $0.savingMemoID = nil } }
                saved.forEach(loop.dispatch)
            }
        }
    }

    private func start(title: String, on loop: AppLoop, tracked: Bool) {
        let target = loop.session
        let epoch = ui.withLock { $0.epoch }
        loop.onRunner(tracked: tracked) { [self] effects in
            guard let target else {
                return { loop.dispatch(.failed(.noInputToRecord)) }
            }
            let notes = effects.refresh().notes
            let started: InputSession.Recording
            do throws(StartFailure) {
                started = try begin(title: title, on: target, effects, eventQueue: loop.queue) { [self] error, path in
                    recordingFailed(path: path, error: error, on: loop)
                }
            } catch {
                return { (notes + [.failed(error.failure)]).forEach(loop.dispatch) }
            }
            return { [self] in
                notes.forEach(loop.dispatch)
                // A quit or an input switch that came meanwhile has already been queued
                // to stop it; the tick must not show it as running.
                guard epoch == ui.withLock({ $0.epoch }), loop.session === target else { return }
                target.attach(started)
                loop.dispatch(.recordingStarted(title: title, memoID: started.memo.memo.id))
            }
        }
    }

    /// The recorder stopped on an error (a full disk): what it wrote is saved, the cause shown.
    func recordingFailed(path: String, error: RecorderError, on loop: AppLoop) {
        if loop.session?.recording?.recorder.url == path {
            endShownRecordings()
            _ = loop.session?.detachRecording()
        }
        loop.onRunner(tracked: false) { [self] effects in
            guard runnerRecordingPath == path else { return {} }
            let saved = save(effects, stoppedBy: error.message) { _, _ in }
            return { saved.forEach(loop.dispatch) }
        }
    }

    // MARK: Titles given while saving

    /// Whether `s` is saving memo `id` on the runner now (UI queue).
    func isSaving(_ id: Int64) -> Bool {
        ui.withLock { $0.savingMemoID == id }
    }

    /// Hands the runner a title for memo `id` while it saves it (from the UI queue).
    func offerTitle(_ title: String, forMemo id: Int64) {
        offeredTitles.withLock { $0[id] = title }
    }

    /// The title offered for memo `id` and not yet stored, taken.
    func takeOfferedTitle(forMemo id: Int64) -> String? {
        offeredTitles.withLock { $0.removeValue(forKey: id) }
    }

    /// Stores an offered title in the index (the memo is still `recording`: the index only).
    private func storeOfferedTitle(forMemo id: Int64, in store: MemoStore?) -> [Action] {
        guard let store, let title = takeOfferedTitle(forMemo: id) else { return [] }
        do {
            try store.rename(id, to: title)
            return []
        } catch {
            return [.failed(.titleNotGiven(title: title, detail: "\(error)"))]
        }
    }

    // MARK: On the runner

    /// The file of the recording in progress as the runner knows it: the library's lists leave it out.
    var runnerRecordingPath: String? {
        runner.withLock { $0.recording?.recorder.url }
    }

    /// Why a recording did not start, as the status line's `Action.failed` takes it.
    struct StartFailure: Error {
        let failure: AppFailure
    }

    /// On the runner: creates the memo and starts its recorder on `session`'s engine.
    ///
    /// - Parameter onError: gets the recorder's error and the recording's path, on `eventQueue`.
    func begin(
        title: String, on session: InputSession, _ effects: AppEffects, eventQueue: DispatchQueue,
        onError: @escaping @Sendable (RecorderError, String) -> Void
    ) throws(StartFailure) -> InputSession.Recording {
        guard let store = effects.store else { throw StartFailure(failure: .recordingStartWithoutLibrary) }
        let memo: MemoRecording
        do {
            memo = try store.beginRecording(
                title: title, settings: session.settings, created: Date(),
                channelRoles: session.source.name.channelRoles(channels: session.settings.channels))
        } catch {
            throw StartFailure(failure: .recordingStart(detail: "\(error)"))
        }
        do {
            let started = try session.makeRecording(into: memo, queue: eventQueue, onError: onError)
            runner.withLock {
                $0.recording = started
                $0.begun = (store.generation, store.folderIdentity)
            }
            return started
        } catch {
            store.abandonRecording(memo)
            throw StartFailure(failure: .recordingStart(detail: error.message))
        }
    }

    /// On the runner: the memo and its recorder on `session` (just opened, not yet the app's:
    /// `R`, the stream as the input), or the failure in `notes`.
    func begin(
        _ title: String, on session: InputSession, _ effects: AppEffects, loop: AppLoop
    ) -> (notes: [Action], started: InputSession.Recording?) {
        let notes = effects.refresh().notes
        do throws(StartFailure) {
            let started = try begin(title: title, on: session, effects, eventQueue: loop.queue) { [self] error, path in
                recordingFailed(path: path, error: error, on: loop)
            }
            return (notes, started)
        } catch {
            return (notes + [.failed(error.failure)], nil)
        }
    }

    /// Stops `recording`'s recorder on a thread of its own (its writer may encode for minutes),
    /// reporting every 0.1 s how far the encoding is and storing a title offered meanwhile in
    /// `store` (none while the library was replaced under the recording).
    private func stop(
        _ recording: InputSession.Recording, storingTitlesIn store: MemoStore?, progress: (Double?, String) -> Void
    ) -> [Action] {
        let recorder = recording.recorder
        var actions: [Action] = []
        let encoding = "encoding \(recorder.settings.format.displayName)"
        Waiting.run("vm-stop", { recorder.stop() }) {
            actions += storeOfferedTitle(forMemo: recording.memo.memo.id, in: store)
            if let fraction = recorder.finishingProgress {
                progress(fraction, encoding)
            } else {
                progress(nil, "finishing the file")
            }
        }
        return actions
    }

    /// The disk filled behind the encoder: the whole recording is in its intermediate, and the
    /// memo waits for room to be encoded (never "gone": its file is not made yet).
    private func keepWaitingForRoom(
        _ memoRecording: MemoRecording, of recorder: Recorder, cause full: SoundFileError, in store: MemoStore
    ) -> Action {
        let frames = recorder.statistics.framesWritten
        let recorded = DisplayFormat.elapsedTime(seconds: Double(frames) / Double(recorder.settings.sampleRate))
        do {
            let memo = try store.finishRecording(memoRecording, statistics: nil)
            let why = WaitingForRoomText.recordingKept(
                cause: full, recorded: recorded, format: recorder.settings.format.displayName, memo: true, intermediate: "")
            return .recordingStoppedOnError(MemoRow(memo), RecordingStop(error: why))
        } catch {
            return .failed(.recordingKeptNotAdded(detail: "\(error)"))
        }
    }

    /// On the runner: stops the recording in progress (the file is complete when the recorder
    /// returns) and finishes its memo, then lists the library. A recording that stopped on an
    /// error (`cause`) keeps its cause on the status line instead of opening the title prompt.
    ///
    /// The recorder stops on a thread of its own (its writer encodes what the MP3 or Ogg
    /// Vorbis encoder had not caught up with: minutes after an hour from an unpaced input);
    /// meanwhile, every 0.1 s, this reports how far the encoding is and stores a title the
    /// prompt gave the memo (`offerTitle`) in the index, where a kill -9 or a failed save
    /// keeps it and `finishRecording` writes it into the file. Not while the library was
    /// replaced under the recording: the memo's id is another index's until it is rebound.
    func save(_ effects: AppEffects, stoppedBy cause: String? = nil, progress: (Double?, String) -> Void) -> [Action] {
        let (taken, begun) = runner.withLock { side in
            defer { side = RunnerSide() }
            return (side.recording, side.begun)
        }
        guard let recording = taken else { return [] }
        let store = effects.store
        progress(nil, "finishing the file")
        let path = recording.recorder.url
        // The folder deleted under the recording (its file has no name any more): hold the file
        // open so that what the recorder finishes can be copied back into the folder made again.
        let folderWasDeleted = store.map { begun?.folder != nil && FileIdentity(of: $0.folder) != begun?.folder } ?? false
        let hold = folderWasDeleted ? DeletedFileHold(path: path) : nil
        var actions: [Action] = folderWasDeleted ? effects.refresh().notes : []
        let sameIndex = begun.map { $0.generation == store?.generation } ?? true
        actions += stop(recording, storingTitlesIn: sameIndex ? store : nil, progress: progress)
        // The status line has one or two rows: the memo's file name says enough, not its path.
        let reason = cause?.replacingOccurrences(of: path, with: (path as NSString).lastPathComponent)
        guard let store else {
            return [.failed(.recordingWithoutLibrary(path: path))]
        }
        var memoRecording = recording.memo
        do {
            if let begun, begun.generation != store.generation { memoRecording = try store.rebind(memoRecording) }
        } catch {
            return actions + [.failed(.recordingNotAdded(path: path, stoppedBecause: nil, detail: "\(error)"))] + effects.reload()
        }
        actions += storeOfferedTitle(forMemo: memoRecording.memo.id, in: store)
        if recording.recorder.recordedFrames == 0 || recording.recorder.statistics.framesWritten == 0 {
            // Nothing captured or nothing written (a full disk from the start, `s` at once): a
            // 0-frame memo would only be listed as damaged. Leave nothing, and say so.
            _ = try? recording.recorder.deleteRecording()
            store.abandonRecording(memoRecording)
            return actions + [.recordingDiscarded(.nothingRecorded(stoppedBecause: reason))] + effects.reload()
        }
        if folderWasDeleted, !FileManager.default.fileExists(atPath: path) {
            do {
                guard let hold else { throw MemoLibraryError.file(path: path, reason: "no longer open in this process") }
                progress(nil, "copying it back into the library")
                try hold.restore()
            } catch {
                store.abandonRecording(memoRecording)
                return actions + [.recordingDiscarded(.recordingLostWithFolder(folder: store.folder, detail: "\(error)"))] + effects.reload()
            }
        }
        if case .soundFile(let full)? = recording.recorder.error?.cause, full.waitsForRoom,
            SoundFileRecovery.needsEncoding(path: path)
        {
            return actions + [keepWaitingForRoom(memoRecording, of: recording.recorder, cause: full, in: store)] + effects.reload()
        }
        guard FileManager.default.fileExists(atPath: path) else {
            // Deleted by someone else: never "Saved" for a file that is not there.
            store.abandonRecording(memoRecording)
            return actions + [.recordingDiscarded(.recordingFileGone(path: path))] + effects.reload()
        }
        progress(nil, "adding it to the library")
        do {
            let memo = try store.finishRecording(memoRecording, statistics: recording.recorder.measuredStatistics)
            // A folder deleted under it is said instead of opening the title prompt (which
            // would cover the status line).
            let stopped = RecordingStop(error: reason, deletedLibraryFolder: folderWasDeleted ? store.folder : nil)
            let row = MemoRow(memo)
            actions.append(stopped.isEmpty ? .recordingSaved(row) : .recordingStoppedOnError(row, stopped))
        } catch {
            actions.append(.failed(.recordingNotAdded(path: path, stoppedBecause: reason, detail: "\(error)")))
        }
        return actions + effects.reload()
    }
}
