import Audio
import Dispatch
import Foundation
import Interface
import MemoLibrary
import Synchronization

/// The effect runner: its serial queue, the library (one SQLite connection, used only on
/// that queue, shared by every feature's handler) and how an input open is going. What each
/// feature keeps on the runner is its handler's (`Effects/`); the recording in progress, which
/// the lists leave out, is `RecordingEffects`'. What changes is held in mutexes (`runner`,
/// `opening`), so the compiler checks the sharing; the store itself is used on `queue` only.
final class AppEffects: Sendable {
    let queue = DispatchQueue(label: "voicememo.effects")
    private let environment: [String: String]
    /// The recording's handler: the recording in progress as the runner knows it.
    private let recordings: RecordingEffects
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
    var store: MemoStore? { runner.withLock { $0.store } }
    private let runner = Mutex(RunnerSide())

    private struct RunnerSide {
        var store: MemoStore?
        /// The last failure of `poll()`, said once rather than every second.
        var pollFailure: AppFailure?
    }

    init(environment: [String: String], recordings: RecordingEffects) {
        self.environment = environment
        self.recordings = recordings
    }

    /// Opens the library, running its start-up maintenance (recovery after kill -9, adoption,
    /// the 30-day purge): seconds, after a crash during a long recording.
    func openLibrary() throws(MemoLibraryError) {
        let opened = try MemoStore(environment: environment)
        runner.withLock { $0.store = opened }
    }

    /// Checks the library against other processes (`MemoStore.refresh()`): the lists when
    /// another process changed the index, the library opened again (and said so) when its
    /// index was replaced or its folder deleted. Run every second by the loop's library poll.
    func poll() -> [Action] {
        guard store != nil else { return [] }
        let (notes, changed) = refresh()
        return changed ? notes + reload() : notes
    }

    /// Before the library is used: opens it again if its index or folder was replaced (said on
    /// the status line as `AppFailure.libraryReopened`); `changed` when the lists should be
    /// read again.
    func refresh() -> (notes: [Action], changed: Bool) {
        guard let store else { return ([], false) }
        do {
            let found = try store.refresh()
            runner.withLock { $0.pollFailure = nil }
            switch found {
            case .unchanged: return ([], false)
            case .changedElsewhere: return ([], true)
            case .filesChanged(let adopted):
                let notes = adopted.map { DroppedFile(fileName: $0.fileName, title: $0.title, titleFromTags: $0.titleFromTags) }
                return (notes.isEmpty ? [] : [.filesAdopted(notes)], true)
            case .reopened(let onDisk): return ([.failed(.libraryReopened(Self.reopening(onDisk, folder: store.folder, recording: recordings.runnerRecordingPath != nil)))], true)
            }
        } catch {
            let failure = AppFailure.libraryNotReopened(detail: "\(error)")
            let saidBefore = runner.withLock { side in
                defer { side.pollFailure = failure }
                return side.pollFailure == failure
            }
            return (saidBefore ? [] : [.failed(failure)], false)
        }
    }

    /// Why the library had to be opened again, in Interface's terms (which word it).
    static func reopening(_ onDisk: LibraryOnDisk, folder: String, recording: Bool) -> LibraryReopening {
        switch onDisk {
        case .asOpened: .asOpened
        case .indexReplaced: .indexReplaced(folder: folder)
        case .folderGone: .folderGone(folder: folder, recording: recording)
        }
    }

    /// The library's lists as an action (or `AppFailure.libraryReload`).
    func reload() -> [Action] {
        guard let store else { return [] }
        do {
            let memos = try store.memos(excluding: recordings.runnerRecordingPath)
            return [.libraryLoaded(memos: memos.map(MemoRow.init), deleted: try store.deletedMemos().map(MemoRow.init))]
        } catch {
            return [.failed(.libraryReload(detail: "\(error)"))]
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
