import Dispatch
import Interface
import Synchronization

/// The transcripts' effects (`/` search, `t` the transcript view, the background job;
/// `Interface/Update/TranscriptUpdate.swift`): searches and reads on the effect runner, the
/// job (`TranscriptionJob`, `transcribe = auto`) on a thread of its own, started once the
/// library is open. Its state (UI queue): the job and what it was last told, paused or not.
final class TranscriptEffects: Sendable {
    private struct UISide {
        var job: TranscriptionJob?
        var paused = false
    }

    private let ui = Mutex(UISide())
    /// The PocketSphinx model folder (`transcribe.model`).
    private let modelDirectory: String
    /// `auto_title`: the job titles memos at their default title from their words.
    private let titlesFromWords: Bool

    init(modelDirectory: String, titlesFromWords: Bool = true) {
        self.modelDirectory = modelDirectory
        self.titlesFromWords = titlesFromWords
    }

    /// The background job, once started (UI queue).
    var job: TranscriptionJob? { ui.withLock { $0.job } }

    func perform(_ effect: Effect, on loop: AppLoop, tracked: Bool) {
        switch effect {
        case .searchTranscripts(let query):
            loop.onRunner(tracked: tracked) { effects in
                let answer: Action
                do {
                    answer = .transcriptMatchesFound(query: query, try effects.store?.transcriptMatches(query) ?? [])
                } catch {
                    answer = .failed(.transcriptSearch(detail: "\(error)"))
                }
                return { loop.dispatch(answer) }
            }
        case .loadTranscript(let id):
            loop.onRunner(tracked: tracked) { effects in
                let answer: Action
                do {
                    answer = .transcriptLoaded(memoID: id, try effects.store?.transcriptContent(of: id) ?? .missing)
                } catch {
                    answer = .transcriptLoaded(memoID: id, .failed("the transcript cannot be read: \(error)"))
                }
                return { loop.dispatch(answer) }
            }
        case .transcribeNewMemos:
            transcribeNewMemos(on: loop)
        default:
            assertionFailure("not a transcript effect: \(effect)")
        }
    }

    /// Wakes the background transcription, starting it the first time (the library is open by then).
    private func transcribeNewMemos(on loop: AppLoop) {
        guard loop.state.transcription.isEnabled, !loop.isFinishing else { return }
        if let job {
            job.wake()
            return
        }
        let job = TranscriptionJob(
            environment: loop.environment, modelDirectory: modelDirectory, titlesFromWords: titlesFromWords, queue: loop.queue
        ) { event in
            loop.dispatch(.transcription(event))
            loop.render()
        }
        let paused = loop.state.pausesTranscription
        ui.withLock {
            $0.paused = paused
            $0.job = job
        }
        job.setPaused(paused)
        job.start()
    }

    /// Tells the job when the state pauses it or lets it go on (after every reduce).
    func follow(pausing paused: Bool) {
        let changed = ui.withLock { side -> TranscriptionJob? in
            guard let job = side.job, side.paused != paused else { return nil }
            side.paused = paused
            return job
        }
        changed?.setPaused(paused)
    }

    /// Stops the job (the app is ending).
    func end() {
        ui.withLock { side in defer { side.job = nil }; return side.job }?.stop()
    }
}
