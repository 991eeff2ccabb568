import Platform
import Audio
import Foundation
import Interface
import MemoLibrary
import SoundFiles
import Synchronization

/// Trim, split and silence removal from the app (`X`, `S`, `Z`; `Interface/Update/EditKeys.swift`),
/// their undo, and the waveform band's envelopes: on the effect runner, through the library's
/// one implementation (`MemoStore.edit`, which the CLI's `trim` and `split` share), on a thread
/// of its own at `BackgroundPriority.heavy`. Its state (UI queue): the memo whose envelope was
/// last asked for, so each is asked once (the stale-result guard of the waveform band).
final class EditingEffects: Sendable {
    private let waveformRequested = Mutex<Int64?>(nil)

    func perform(_ effect: Effect, on loop: AppLoop, tracked: Bool) {
        switch effect {
        case .editMemo(let request):
            edit(request, on: loop, tracked: tracked)
        case .undoEdit(let originalID, let madeIDs):
            loop.library.change(on: loop, tracked: tracked) { store in
                try store.undoEdit(originalID: originalID, madeIDs: madeIDs)
            }
        default:
            assertionFailure("not an editing effect: \(effect)")
        }
    }

    /// Performs `Effect.editMemo`: the edit with its progress on the status line, then
    /// `memoEdited` (or `AppFailure.edit`) and the library listed again.
    private func edit(_ request: EditRequest, on loop: AppLoop, tracked: Bool) {
        let progress = loop.progressReporter(tracked)
        loop.transcripts.job?.cancel(memo: request.memoID)
        loop.onRunner(tracked: tracked) { effects in
            var actions = effects.refresh().notes
            if let store = effects.store {
                do throws(MemoLibraryError) {
                    let result = try BackgroundPriority.heavy.run {
                        Result { () throws(MemoLibraryError) in
                            try store.edit(request) { step in progress(step.fraction, Self.stage(of: step, request)) }
                        }
                    }.get()
                    actions.append(.memoEdited(EditOutcome(
                        request: request, originalID: result.original.id, title: result.original.title,
                        originalDuration: result.original.duration, made: result.memos.map(MemoRow.init), reencoded: result.reencoded)))
                } catch {
                    actions.append(.failed(.edit(title: request.title, detail: "\(error)")))
                }
            }
            actions += effects.reload()
            let answer = actions
            return { answer.forEach(loop.dispatch) }
        }
    }

    /// What the edit is doing, for its progress line: "trimming", then "encoding MP3" while a
    /// lossy format written through an intermediate is encoded (the slow part).
    static func stage(of progress: EditProgress, _ request: EditRequest) -> String {
        guard progress.isEncoding, let format = progress.encodedFormat else { return request.verb }
        return "encoding \(format.displayName)"
    }

    /// Asks the runner for the envelope the waveform band wants, when that changed. Reading
    /// one is a single row of the index (the audio is read only for a memo from before
    /// envelopes were kept, once), so it is not tracked as work.
    func requestWaveformIfWanted(_ wanted: Int64?, on loop: AppLoop) {
        guard let wanted, waveformRequested.withLock({ old in defer { old = wanted }; return old != wanted }) else { return }
        loop.onRunner(tracked: false) { effects in
            let envelope = effects.store?.envelope(ofMemo: wanted)
            return { loop.dispatch(.waveformLoaded(memoID: wanted, envelope)) }
        }
    }
}
