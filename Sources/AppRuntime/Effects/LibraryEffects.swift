import Platform
import Audio
import Interface
import MemoLibrary
import Metering

/// The library's effects (opening it, rename, delete, restore, purge, export, markers; the
/// memo table's keys in `Interface/Update`): all on the effect runner, where its one SQLite
/// connection (`AppEffects.store`) lives, each answered by the lists read again. It keeps no
/// state of its own: the store is the runner's, shared by every feature.
struct LibraryEffects {
    func perform(_ effect: Effect, on loop: AppLoop, tracked: Bool) {
        switch effect {
        case .openLibrary:
            loop.onRunner(tracked: tracked) { effects in
                do throws(MemoLibraryError) {
                    try effects.openLibrary()
                } catch {
                    return {
                        loop.fatalFailure = error
                        loop.finishNow()
                    }
                }
                let loaded = effects.reload()
                return { loaded.forEach(loop.dispatch) }
            }
        case .reloadLibrary:
            loop.onRunner(tracked: tracked) { effects in
                let loaded = effects.reload()
                return { loaded.forEach(loop.dispatch) }
            }
        case .renameMemo(let id, let title) where loop.recordings.isSaving(id):
            // The memo being saved: the runner is busy with it, so the title goes beside its
            // queue and the save stores it within 0.1 s; this job applies it only if the
            // save had already finished the memo (then as an ordinary rename).
            let recordings = loop.recordings
            recordings.offerTitle(title, forMemo: id)
            change(on: loop, tracked: tracked) { store in
                if let title = recordings.takeOfferedTitle(forMemo: id) { try store.rename(id, to: title) }
            }
        case .renameMemo(let id, let title):
            change(on: loop, tracked: tracked) { store in try store.rename(id, to: title) }
        case .undoRename(let id, let title, let replacing):
            change(on: loop, tracked: tracked) { store in try store.rename(id, to: title, ifTitleIs: replacing) }
        case .setMemoTags(let id, let tags, let starred):
            change(on: loop, tracked: tracked) { store in try store.setTags(id, tags: tags, starred: starred) }
        case .deleteMemo(let id):
            loop.transcripts.job?.cancel(memo: id)
            change(on: loop, tracked: tracked) { store in try store.delete(id) }
        case .restoreMemo(let id):
            let job = loop.transcripts.job
            change(on: loop, tracked: tracked) { store in
                try store.restore(id)
                job?.restored(memo: id)
            }
        case .purgeMemo(let id):
            loop.transcripts.job?.cancel(memo: id)
            change(on: loop, tracked: tracked) { store in try store.purge(id) }
        case .exportMemo(let id, let path, let loudness):
            export(id, to: path, loudness: loudness, on: loop, tracked: tracked)
        case .completeExportPath(let id, let typed):
            let home = loop.environment["HOME"]
            loop.onRunner(tracked: false) { _ in
                let matches = PathCompletions.matches(for: typed, home: home)
                return { loop.dispatch(.exportPathCompletions(id: id, typed: typed, matches: matches)) }
            }
        case .addMarker(let memoID, let time):
            addMarker(memoID: memoID, time: time, on: loop)
        case .labelMarker(let memoID, let time, let label):
            loop.onRunner(tracked: false) { effects in
                do throws(MemoLibraryError) {
                    try effects.store?.labelMarker(at: time, ofMemo: memoID, label: label)
                    return {}
                } catch {
                    return { loop.dispatch(.failed(.markerLabelNotKept(detail: "\(error)"))) }
                }
            }
        case .loadMemoDetails(let memoID):
            loop.onRunner(tracked: false) { effects in
                let extras = Self.extras(of: memoID, in: effects.store)
                return { loop.dispatch(.memoDetailsLoaded(extras)) }
            }
        default:
            assertionFailure("not a library effect: \(effect)")
        }
    }

    private func export(_ id: Int64, to path: String, loudness: LoudnessTarget?, on loop: AppLoop, tracked: Bool) {
        let home = loop.environment["HOME"]
        let progress = loop.progressReporter(tracked)
        loop.onRunner(tracked: tracked) { effects in
            let answer: Action
            do throws(MemoLibraryError) {
                guard let store = effects.store else { throw .notFound(reference: String(id), inRecentlyDeleted: false) }
                // The conversion can take a core for a minute: it gives way to the screen.
                let target = Self.expandingHome(path, home: home)
                // The destination is checked first: a path refused there (a folder that does not
                // exist, a device, the library) comes back to the prompt as typed.
                do throws(MemoLibraryError) {
                    try store.checkExport(id, to: target)
                } catch .destinationExists(let existing) {
                    return { loop.dispatch(.exportRefused(id: id, typed: path, failure: .exportTargetExists(path: existing))) }
                } catch .file(_, let reason, _) {
                    // The reason first (it names the folder): the path is in the prompt below it.
                    return { loop.dispatch(.exportRefused(id: id, typed: path, failure: .export(detail: reason))) }
                }
                let written = try BackgroundPriority.heavy.run {
                    Result { () throws(MemoLibraryError) in
                        try store.export(id, to: target, loudness: loudness) { step in progress(step.fraction, step.description) }
                    }
                }.get()
                answer = .exported(
                    ExportedCopy(
                        title: written.title, path: written.path, loudness: written.normalised?.loudness,
                        truePeak: written.normalised?.truePeak))
            } catch .destinationExists(let existing) {
                answer = .failed(.exportTargetExists(path: existing))
            } catch {
                answer = .failed(.export(detail: "\(error)"))
            }
            return { loop.dispatch(answer) }
        }
    }

    /// `~/…` in a typed path as the shell would read it; anything else as typed.
    static func expandingHome(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty, path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }

    /// Memo `id`'s markers and transcript state for `I`; what cannot be read says why.
    static func extras(of id: Int64, in store: MemoStore?) -> MemoExtras {
        var markers: [Marker] = []
        var markersProblem: String?
        do {
            markers = try store?.markers(ofMemo: id) ?? []
        } catch {
            markersProblem = "\(error)"
        }
        let transcript: TranscriptContent
        do {
            transcript = try store?.transcriptContent(of: id) ?? .missing
        } catch {
            transcript = .failed("the transcript cannot be read: \(error)")
        }
        return MemoExtras(
            memoID: id, markers: markers.map { .init(time: $0.time, label: $0.label) }, markersProblem: markersProblem,
            transcript: transcript)
    }

    /// Stores a marker in the index, on the runner (a kill -9 after it keeps it).
    func addMarker(memoID: Int64, time: Double, label: String = "", on loop: AppLoop) {
        loop.onRunner(tracked: false) { effects in
            do throws(MemoLibraryError) {
                try effects.store?.addMarker(Marker(time: time, label: label), toMemo: memoID)
                return {}
            } catch {
                return { loop.dispatch(.failed(.markerNotKept(detail: "\(error)"))) }
            }
        }
    }

    /// A change to the library on the runner, after checking it against other processes,
    /// answered by its failure (`AppFailure.libraryChange`) and the lists read again.
    func change(on loop: AppLoop, tracked: Bool, _ change: @escaping @Sendable (MemoStore) throws -> Void) {
        loop.onRunner(tracked: tracked) { effects in
            var actions = effects.refresh().notes
            if let store = effects.store {
                do {
                    try change(store)
                } catch MemoLibraryError.titleChangedElsewhere(let memo, let expected) {
                    actions.append(.failed(.undoChangedElsewhere(title: expected, now: memo.title)))
                } catch {
                    actions.append(.failed(.libraryChange(detail: "\(error)")))
                }
            }
            actions += effects.reload()
            let answer = actions
            return { answer.forEach(loop.dispatch) }
        }
    }
}
