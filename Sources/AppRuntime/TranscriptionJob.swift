import Platform
import Audio
import Foundation
import Interface
import MemoLibrary
import Synchronization
import Transcription

/// The app's background transcription (`transcribe = auto`): one thread at nice 19 that
/// transcribes, one memo at a time and newest first, every memo the library lists without a
/// current transcript (`MemoLibrary.memosToTranscribe()`: a memo just saved, adopted files,
/// memos left untranscribed by a restart or a rebuilt index), storing each transcript as it
/// is done. Nothing half-made is stored, so a quit or a kill -9 mid-memo leaves that memo to
/// be done again from its start at the next run.
///
/// It never competes with a recording: the app's loop calls `setPaused(true)` while one is
/// being started, runs or is being saved (`AppState.pausesTranscription`), and the thread
/// waits between two blocks of the file (0.17 s of 48 kHz audio) until it is resumed, with
/// the recogniser's state kept, so it goes on where it stopped.
///
/// It has a library connection of its own (opened on its thread after the app's runner has
/// opened the library, so start-up maintenance is not run twice at once), and reports on the
/// app's queue. `VOICEMEMO_EVENT_LOG` gets `transcribing ID`, `transcribed ID FRACTION`,
/// `transcription pause asked` / `transcription resume asked` (when the loop asked),
/// `transcription paused` / `transcription resumed` (when the thread stopped and went on:
/// at nice 19 on a busy machine that can be later), `transcript ID WORDS` and `skipped ID`.
///
/// What the app and the thread share is in a `Mutex` (`State`); the thread sleeps on
/// `changed`, which every change it may wait for signals, and looks at the state again after
/// each wake (a signal given before it sleeps is kept by the semaphore, so none is lost).
final class TranscriptionJob: Sendable {
    private struct State {
        var lookAgain = true
        var isPaused = false
        var isStopping = false
        /// The memo being transcribed, and whether it was deleted meanwhile.
        var currentMemo: Int64?
        var currentIsCancelled = false
        /// Memos deleted in the app since the job started (until restored): never started
        /// again. The index can still list one for a moment (its delete is queued on the
        /// effect runner, or between moving the file and committing); a fresh-clone run saw
        /// the job skip a deleted memo, list it again at once and store its moved file as a
        /// failure.
        var deleted: Set<Int64> = []
    }

    private let environment: [String: String]
    private let modelDirectory: String
    /// `auto_title`: a memo still at its default title is titled from its first words.
    private let titlesFromWords: Bool
    private let queue: DispatchQueue
    private let report: @Sendable (TranscriptionEvent) -> Void
    private let state = Mutex(State())
    /// Signalled after each change of `state` the thread may be waiting for.
    private let changed = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    /// Where `setPaused` notes when it was asked (the UI queue's moment; the thread notes its own).
    private let requestLog: EventLog?

    /// - Parameters:
    ///   - modelDirectory: the PocketSphinx model (`transcribe.model`).
    ///   - titlesFromWords: `auto_title`: memos at their default title are titled from their words.
    ///   - report: called on `queue` with each event.
    init(
        environment: [String: String], modelDirectory: String, titlesFromWords: Bool = true, queue: DispatchQueue,
        report: @escaping @Sendable (TranscriptionEvent) -> Void
    ) {
        self.environment = environment
        self.modelDirectory = modelDirectory
        self.titlesFromWords = titlesFromWords
        self.queue = queue
        self.report = report
        requestLog = EventLog(environment: environment)
    }

    deinit {
        requestLog?.close()
    }

    func start() {
        // Not joined: `stop` waits for it at most a timeout (loading the model cannot be interrupted).
        DetachedThread.start(name: "vm-transcribe") { [self] in
            run()
            ended.signal()
        }
    }

    /// Looks for memos to transcribe once the current one is done (or now, when idle).
    func wake() {
        state.withLock { $0.lookAgain = true }
        changed.signal()
    }

    /// Holds the work between two blocks (`true`) or lets it go on.
    func setPaused(_ paused: Bool) {
        let requestLog = requestLog
        state.withLock { state in
            state.isPaused = paused
            requestLog?.note(paused ? "transcription pause asked" : "transcription resume asked")
        }
        changed.signal()
    }

    /// Memo `id` was deleted: if it is being transcribed, that stops and nothing is stored.
    func cancel(memo id: Int64) {
        state.withLock { state in
            state.deleted.insert(id)
            if state.currentMemo == id { state.currentIsCancelled = true }
        }
    }

    /// Memo `id` was restored from Recently Deleted: it may be transcribed again.
    func restored(memo id: Int64) {
        state.withLock { state in
            state.deleted.remove(id)
            state.lookAgain = true
        }
        changed.signal()
    }

    /// Stops after the current block (nothing half-made is stored) and waits for the thread
    /// at most `timeout` (loading the model cannot be interrupted; the process may then
    /// end around it).
    func stop(timeout: DispatchTimeInterval = .seconds(2)) {
        state.withLock { $0.isStopping = true }
        changed.signal()
        _ = ended.wait(timeout: .now() + timeout)
    }

    // MARK: The thread

    private func run() {
        BackgroundPriority.idle.lowerCallingThread()
        let log = EventLog(environment: environment)
        defer { log?.close() }
        let transcriber: Transcriber
        let library: MemoLibrary
        do {
            transcriber = Transcriber(model: try SpeechModel(directory: modelDirectory))
        } catch {
            send(.unavailable(.model(detail: error.briefDescription)))
            return
        }
        do {
            library = try MemoStore.openConnection(environment: environment)
        } catch {
            send(.unavailable(.library(detail: "\(error)")))
            return
        }
        defer { library.close() }
        // Memos whose file failed this run (a recogniser error is not stored as the file's fault).
        var failed: Set<Int64> = []
        while waitForWork() {
            // A memo deleted meanwhile is never chosen again (`deleted`, until restored).
            while let memo = next(in: library, excluding: failed, log: log) {
                guard let outcome = transcribe(memo, with: transcriber, in: library, log: log) else { return }
                if !outcome { failed.insert(memo.id) }
            }
            send(.idle)
        }
    }

    /// Waits until there may be something to do; `false` once stopping.
    private func waitForWork() -> Bool {
        while true {
            let answer: Bool? = state.withLock { state in
                guard state.lookAgain || state.isStopping else { return nil }
                state.lookAgain = false
                return !state.isStopping
            }
            if let answer { return answer }
            changed.wait()
        }
    }

    /// The newest memo without a current transcript, after any pause; `nil` when there is
    /// none or the job stops.
    private func next(in library: MemoLibrary, excluding failed: Set<Int64>, log: EventLog?) -> Memo? {
        guard waitWhilePaused(log: log) else { return nil }
        let listed = ((try? library.memosToTranscribe()) ?? []).filter { !failed.contains($0.id) }
        let deleted = state.withLock { $0.deleted }
        let waiting = listed.filter { !deleted.contains($0.id) }
        guard let memo = waiting.last else { return nil }
        state.withLock { state in
            state.currentMemo = memo.id
            state.currentIsCancelled = state.deleted.contains(memo.id)
        }
        send(.started(memoID: memo.id, title: memo.title, waiting: waiting.count - 1))
        log?.note("transcribing \(memo.id)")
        return memo
    }

    /// Whether `memo` is still in the library, not in Recently Deleted.
    private func isStillListed(_ memo: Memo, in library: MemoLibrary) -> Bool {
        (try? library.memo(id: memo.id)).flatMap { $0 }.map { $0.deletedAt == nil } ?? false
    }

    /// Transcribes and stores one memo: `true` when done (or skipped), `false` when its file
    /// could not be transcribed, `nil` when the job must end (stopping, or no recogniser).
    private func transcribe(_ memo: Memo, with transcriber: Transcriber, in library: MemoLibrary, log: EventLog?) -> Bool? {
        var reported = -1
        let transcript: Transcript
        do {
            transcript = try transcriber.transcribe(
                memo: memo,
                progress: { fraction in
                    log?.note(String(format: "transcribed %lld %.4f", memo.id, fraction))
                    let percent = Int(fraction * 100)
                    if percent != reported {
                        reported = percent
                        send(.progress(memoID: memo.id, fraction: fraction))
                    }
                },
                shouldStop: { [self] in !waitWhilePaused(log: log) || isCurrentCancelled })
        } catch {
            switch error {
            case .cancelled:
                guard !isStoppingNow else { return nil }
                log?.note("skipped \(memo.id)")
                send(.skipped(memoID: memo.id))
                return true
            case .sound, .noAudio, .resampling:
                // Deleted meanwhile (its file moved to .trash under the reader): not the file's
                // fault, and not wanted; nothing is stored.
                // A file that is not where the memo says has moved (a delete not yet committed):
                // not the file's fault either.
                guard !isCurrentCancelled, isStillListed(memo, in: library), FileManager.default.fileExists(atPath: memo.path)
                else {
                    log?.note("skipped \(memo.id)")
                    send(.skipped(memoID: memo.id))
                    return true
                }
                // The file is at fault: remembered, so no later run tries it again.
                try? library.storeTranscriptionFailure(
                    forMemo: memo.id, problem: error.description, model: transcriber.model.name, frames: memo.frames,
                    at: Date())
                send(.failed(memoID: memo.id, title: memo.title, problem: .file(detail: error.description)))
                return false
            case .modelMissing, .recognizer:
                send(.unavailable(.model(detail: error.briefDescription)))
                return nil
            }
        }
        // Deleted while it was transcribed: its transcript is not wanted.
        guard isStillListed(memo, in: library), !isCurrentCancelled else {
            log?.note("skipped \(memo.id)")
            send(.skipped(memoID: memo.id))
            return true
        }
        do {
            try library.storeTranscript(transcript, forMemo: memo.id, at: Date())
        } catch .notFound {
            log?.note("skipped \(memo.id)")
            send(.skipped(memoID: memo.id))
            return true
        } catch {
            send(.failed(memoID: memo.id, title: memo.title, problem: .notStored(detail: "\(error)")))
            return false
        }
        log?.note("transcript \(memo.id) \(transcript.words.count)")
        // A memo still at its default title gets one from its words; a failed rename leaves it
        // as it was (the transcript is stored all the same).
        if titlesFromWords, let change = try? library.titleFromWords(of: transcript, forMemo: memo.id) {
            log?.note("titled \(memo.id)")
            send(.titled(memoID: memo.id, previousTitle: change.previousTitle, title: change.title, words: transcript.words.count))
        } else {
            send(.finished(memoID: memo.id, title: memo.title, words: transcript.words.count))
        }
        return true
    }

    /// Blocks while paused; `false` when the job is stopping.
    private func waitWhilePaused(log: EventLog?) -> Bool {
        var paused = false
        while true {
            let answer: Bool? = state.withLock { state in
                if state.isPaused, !state.isStopping {
                    if !paused { log?.note("transcription paused") }
                    return nil
                }
                if paused { log?.note("transcription resumed") }
                return !state.isStopping
            }
            if let answer { return answer }
            paused = true
            changed.wait()
        }
    }

    private var isCurrentCancelled: Bool {
        state.withLock { $0.currentIsCancelled }
    }

    private var isStoppingNow: Bool {
        state.withLock { $0.isStopping }
    }

    private func send(_ event: TranscriptionEvent) {
        let report = report
        queue.async { report(event) }
    }
}
