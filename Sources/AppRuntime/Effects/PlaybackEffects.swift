import Audio
import Dispatch
import Interface
import MemoLibrary
import Synchronization

/// Playback's effects (⏎, space, ← →, `s` while playing, the adjustments, `O`;
/// `Interface/Update/PlaybackUpdate.swift`): the player opened and stopped on the effect
/// runner, paused, resumed and seeked here.
///
/// The UI queue's side (`UISide`): the session playing, a count of plays (an event or an
/// answer of a player already replaced is dropped: the stale-result guard) and where memos
/// play. The runner's (`RunnerSide`): the player it started last, where `adjustPlayback`
/// goes, and the adjustments every memo plays with. Each side in a mutex of its own.
final class PlaybackEffects: Sendable {
    private struct UISide {
        var session: PlaybackSession?
        var generation = 0
        /// Where memos and replays play: `--device`, then the output picker (`O`).
        var device: String
    }

    private struct RunnerSide {
        var playing: PlaybackSession?
        var settings = PlaybackSettings()
    }

    private let ui: Mutex<UISide>
    private let runner: Mutex<RunnerSide>

    /// - Parameter settings: what every memo plays with until `adjustPlayback` changes it
    ///   (the volume and enhancement the config file keeps).
    init(device: String, settings: PlaybackSettings = PlaybackSettings()) {
        ui = Mutex(UISide(device: device))
        runner = Mutex(RunnerSide(settings: settings))
    }

    /// The memo playing, as the tick reads it (UI queue).
    var session: PlaybackSession? { ui.withLock { $0.session } }
    /// Where memos and replays play (UI queue).
    var device: String { ui.withLock { $0.device } }

    func perform(_ effect: Effect, on loop: AppLoop, tracked: Bool) {
        switch effect {
        case .play(let memo, let start):
            play(memo, from: start, on: loop, tracked: tracked)
        case .pausePlayback:
            session?.pause()
        case .resumePlayback:
            resume(on: loop)
        case .seekPlayback(let seconds):
            session?.seek(by: seconds)
        case .jumpPlayback(let seconds):
            session?.jump(to: seconds)
        case .adjustPlayback(let settings):
            adjust(settings, on: loop)
        case .stopPlayback:
            stop(on: loop)
        case .listOutputs:
            let current = device
            loop.onRunner(tracked: tracked) { _ in
                let sinks = (try? PulseDevices.list())?.sinks
                let list = InputChoices.outputs(serverSinks: sinks, devices: ALSADevices.list(stream: .playback), current: current)
                return { loop.dispatch(.outputsListed(list.choices, hidden: list.hidden)) }
            }
        case .selectOutput(let device):
            ui.withLock { $0.device = device }
        default:
            assertionFailure("not a playback effect: \(effect)")
        }
    }

    /// Plays the memo `row` shows: its file as the index has it now (a row names the memo, it
    /// does not open a file; the file may have moved since the list was read).
    private func play(_ row: MemoRow, from start: Double, on loop: AppLoop, tracked: Bool) {
        let (old, generation, device) = ui.withLock { side in
            defer { side.session = nil }
            side.generation += 1
            return (side.session, side.generation, side.device)
        }
        loop.scheduleTimer()
        loop.onRunner(tracked: tracked) { [self] effects in
            old?.stop()
            let found: Memo?
            do throws(MemoLibraryError) {
                found = try effects.store?.memo(id: row.id)
            } catch {
                return { loop.dispatch(.playbackFailed(.playbackNotStarted(title: row.title, detail: "\(error)"))) }
            }
            guard let memo = found else {
                return { loop.dispatch(.playbackFailed(.playbackMemoGone(title: row.title))) }
            }
            do throws(PlayerError) {
                let started = try PlaybackSession(
                    memo: memo, from: start, device: device, settings: runner.withLock { $0.settings }, queue: loop.queue
                ) { [self] error in
                    ended(generation: generation, error: error, on: loop)
                }
                runner.withLock { $0.playing = started }
                let markers = (try? effects.store?.markers(ofMemo: row.id)) ?? []
                return { [self] in
                    let current = ui.withLock { side in
                        guard side.generation == generation, !loop.isFinishing else { return false }
                        side.session = started
                        return true
                    }
                    guard current else {
                        started.stop()
                        return
                    }
                    loop.scheduleTimer()
                    loop.dispatch(.playbackStarted(
                        memoID: row.id, title: row.title, duration: started.player.duration,
                        channels: started.player.numberOfChannels))
                    let labels = Dictionary(markers.filter { !$0.label.isEmpty }.map { ($0.time, $0.label) }) { first, _ in first }
                    loop.dispatch(.markersLoaded(memoID: row.id, times: markers.map(\.time), labels: labels))
                }
            } catch {
                return { loop.dispatch(.playbackFailed(PlaybackSession.failure(error, title: row.title, device: device))) }
            }
        }
    }

    /// The runner sets them on the player it started last (in order behind that start, so a
    /// key pressed while the memo was opening is not lost) and keeps them for the next.
    private func adjust(_ settings: PlaybackSettings, on loop: AppLoop) {
        loop.onRunner(tracked: false) { [self] _ in
            let playing = runner.withLock { side in
                side.settings = settings
                return side.playing
            }
            do throws(PlayerError) {
                try playing?.adjust(settings)
                return {}
            } catch {
                let title = playing?.memo.title ?? "the memo"
                return { loop.dispatch(.failed(.playbackSetting(title: title, detail: error.message))) }
            }
        }
    }

    private func resume(on loop: AppLoop) {
        guard let playback = session else { return }
        do {
            try playback.resume()
        } catch {
            stop(on: loop)
            loop.dispatch(.playbackFailed(PlaybackSession.failure(error, title: playback.memo.title, device: device)))
        }
    }

    /// Lets the player go at once; the runner stops it (joining its thread).
    func stop(on loop: AppLoop) {
        guard let old = ui.withLock({ side in defer { side.session = nil }; return side.session }) else { return }
        loop.scheduleTimer()
        loop.onRunner(tracked: false) { [self] _ in
            old.stop()
            runner.withLock { if $0.playing === old { $0.playing = nil } }
            return {}
        }
    }

    /// The player ended by itself (on the app's queue); events of a replaced player are ignored.
    private func ended(generation: Int, error: PlayerError?, on loop: AppLoop) {
        guard let ended = ui.withLock({ $0.generation == generation ? $0.session : nil }) else { return }
        stop(on: loop)
        if let error {
            loop.dispatch(.playbackFailed(.playbackStopped(title: ended.memo.title, detail: error.message)))
        } else {
            loop.dispatch(.playbackFinished)
        }
        loop.render()
    }

    /// Lets the memo playing go at once, without the runner (the app is ending).
    func end() {
        ui.withLock { side in defer { side.session = nil }; return side.session }?.stop()
    }
}
