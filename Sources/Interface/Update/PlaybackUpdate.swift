import Metering

/// Playback's part of `reduce`: its keys on the memo table and the player's results.
///
/// Enter plays the selected memo from its start (from the matching word when the `/`
/// filter found it by its transcript), stopping any other; space pauses and
/// resumes; ← and → move the play head 5 s (within the memo); `s` stops when nothing
/// records (while recording it keeps its meaning: stop and save). Starting a recording
/// stops playback, and so does deleting the memo that plays. Speed, pitch, volume, skip
/// silence and the jumps are `PlaybackAdjustmentKeys`.
enum PlaybackUpdate {
    /// How far ← and → move the play head, in seconds.
    static let seekStep: Double = 5
    /// How far `H` and `L` move it.
    static let longSeekStep: Double = 30

    // Playback's part of the memo table's keys (`KeyTable`), and the transcript's.

    /// ← → H L: seek 5 s (H L: 30 s). Nothing playing: H and L say so, the arrows do nothing.
    static func seek(_ key: Key, _ state: inout AppState) -> [Effect] {
        guard var playback = state.playback else {
            guard key == .character("H") || key == .character("L") else { return [] }
            state.say("Nothing is playing. Press ⏎ to play; then H and L seek 30 s.")
            return []
        }
        let step =
            switch key {
            case .left: -seekStep
            case .right: seekStep
            case .character("H"): -longSeekStep
            default: longSeekStep
            }
        playback.elapsed = min(max(playback.elapsed + step, 0), playback.duration)
        state.playback = playback
        return [.seekPlayback(by: step)]
    }

    /// Home End while a memo plays: its start and its end (else `nil`: the table's first and last memo).
    static func jumpToEdge(_ key: Key, _ state: inout AppState) -> [Effect]? {
        guard var playback = state.playback else { return nil }
        playback.elapsed = key == .home ? 0 : playback.duration
        state.playback = playback
        return [.jumpPlayback(to: playback.elapsed)]
    }

    /// `s` while a memo plays and nothing records: stops it (else `nil`).
    static func stopPlaying(_ state: inout AppState) -> [Effect]? {
        guard state.recording == .idle, let title = state.playingTitle, let playback = state.playback else { return nil }
        state.playback = nil
        state.say("Stopped “\(title)” at \(DisplayFormat.elapsedTime(seconds: playback.elapsed)).")
        return [.stopPlayback]
    }

    /// Applies one of the player's results; other actions are not its business.
    static func apply(_ action: Action, to state: inout AppState) -> [Effect] {
        switch action {
        case .playbackStarted(let memoID, let title, let duration, let channels):
            state.playback = PlaybackState(memoID: memoID, title: title, duration: duration, channels: channels)
            state.previewEnd = nil
            // The settings stay from the last memo: a memo that plays other than as recorded says so.
            let adjusted = state.playbackSettings.summary.map { " (\($0))" } ?? ""
            // A memo the filter found by its words starts at the word: say so, or the clock
            // reads as a play head that ran ahead.
            if let match = state.transcriptMatch(for: memoID), match.time > 0 {
                let at = DisplayFormat.elapsedTime(seconds: match.time)
                state.say("Playing “\(title)”\(adjusted) from \(at), where “\(MemoQuery(state.filter).spokenText)” was said. Home plays from the start.")
            } else {
                state.say("Playing “\(title)”\(adjusted). Space pauses, ← → seek 5 s, s stops.")
            }
        case .playbackProgress(let time, let snapshot):
            guard var playback = state.playback else { return [] }
            playback.elapsed = min(max(snapshot.elapsed.isFinite ? snapshot.elapsed : 0, 0), playback.duration)
            if playback.meters.count != snapshot.channels.count {
                playback.meters = Array(repeating: ChannelMeter(), count: snapshot.channels.count)
            }
            for (index, level) in snapshot.channels.enumerated() {
                playback.meters[index].update(level, at: time)
            }
            PlaybackAdjustmentKeys.absorb(snapshot, into: &playback, &state)
            state.playback = playback
            return EditKeys.endPreview(&state)
        case .markersLoaded(let memoID, let times, let labels):
            guard var playback = state.playback, playback.memoID == memoID else { return [] }
            // Markers `b` added (and labels `B` gave) before they arrived are kept.
            playback.markers = Array(Set(playback.markers + times.filter(\.isFinite))).sorted()
            playback.markerLabels.merge(labels.filter { !$0.value.isEmpty }) { given, _ in given }
            state.playback = playback
        case .playbackFinished:
            guard let title = state.playingTitle else { return [] }
            state.playback = nil
            state.say("Finished playing “\(title)”.")
        case .playbackFailed(let failure):
            state.playback = nil
            state.fail(failure.message)
        default:
            break
        }
        return []
    }

    /// `effects` with playback stopped first when they start a recording.
    static func stoppingPlayback(before effects: [Effect], _ state: inout AppState) -> [Effect] {
        let starts = effects.contains { if case .startRecording = $0 { true } else { false } }
        guard starts, state.playback != nil else { return effects }
        state.playback = nil
        return [.stopPlayback] + effects
    }

    /// `[.stopPlayback]` when memo `id` is the one that plays (it is about to be deleted).
    static func stoppingPlayback(ofMemo id: Int64, _ state: inout AppState) -> [Effect] {
        guard state.playback?.memoID == id else { return [] }
        state.playback = nil
        return [.stopPlayback]
    }

    static func play(_ state: inout AppState) -> [Effect] {
        guard state.recording == .idle else {
            state.say("Recording. Stop it (s) before playing a memo.")
            return []
        }
        guard let memo = state.selectedMemo else {
            state.say("No memo to play. Press r to record one.")
            return []
        }
        // A memo the filter found by its words plays from the first matching word.
        return [.play(memo, from: state.transcriptMatch(for: memo.id)?.time ?? 0)]
    }

    static func togglePause(_ state: inout AppState) -> [Effect] {
        guard var playback = state.playback else {
            state.say("Nothing is playing. Press ⏎ to play the selected memo.")
            return []
        }
        playback.isPaused.toggle()
        state.playback = playback
        let title = state.playingTitle ?? playback.title
        if playback.isPaused {
            state.say("Paused “\(title)” at \(DisplayFormat.elapsedTime(seconds: playback.elapsed)). Space resumes.")
            return [.pausePlayback]
        }
        state.say("Playing “\(title)” again.")
        return [.resumePlayback]
    }
}
