import Metering

/// `b` drops a marker at the play head while a memo plays, or at the frame being recorded
/// while recording; `n` and `N` jump to the next and previous marker while a memo plays.
/// Part of `reduce`.
///
/// The marker shows on the progress bar at once; the index stores it from the effect
/// runner (`Effect.addMarker`, `markRecording`: the frame is read when the effect is
/// performed, not at the last tick).
enum MarkerKeys {
    /// `N` within this many seconds after a marker goes to the one before it (as a
    /// player's "previous track" does), so that pressing it again keeps going back.
    static let previousGrace = 1.0

    /// `n` `N`: the next / previous marker of the memo that plays.
    static func jump(_ key: Key, _ state: inout AppState) -> [Effect] {
        guard var playback = state.playback else {
            state.say("Nothing is playing: n and N jump between a playing memo's markers (b adds one).")
            return []
        }
        let target =
            key == .character("n")
            ? playback.markers.first { $0 > playback.elapsed + 0.05 }
            : playback.markers.last { $0 < playback.elapsed - previousGrace }
        guard let target else {
            let which = key == .character("n") ? "after" : "before"
            state.say(playback.markers.isEmpty ? "This memo has no markers: b adds one at the play head." : "No marker \(which) the play head.")
            return []
        }
        playback.elapsed = min(max(target, 0), playback.duration)
        state.playback = playback
        let index = (playback.markers.firstIndex(of: target) ?? 0) + 1
        state.say("Marker \(index) of \(playback.markers.count), \(DisplayFormat.elapsedTime(seconds: target)).")
        return [.jumpPlayback(to: target)]
    }

    static func mark(_ state: inout AppState) -> [Effect] {
        if state.recording != .idle {
            state.say("Marker at \(DisplayFormat.elapsedTime(seconds: state.recordedSeconds)) of the recording.")
            return [.markRecording]
        }
        guard var playback = state.playback else {
            state.say("b marks the play head while a memo plays, or the recording while one records.")
            return []
        }
        let time = min(max(playback.elapsed, 0), playback.duration)
        playback.markers = Array(Set(playback.markers + [time])).sorted()
        state.playback = playback
        state.say("Marker at \(DisplayFormat.elapsedTime(seconds: time)); n and N jump between markers.")
        return [.addMarker(memoID: playback.memoID, time: time)]
    }
}
