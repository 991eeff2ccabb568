import Metering

/// `b` drops a marker at the play head while a memo plays, or at the frame being recorded
/// while recording; `n` and `N` jump to the next and previous marker while a memo plays;
/// `B` labels the marker at (or before) the play head.
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
        let label = playback.markerLabels[target].map { ": \($0)" } ?? ""
        state.say("Marker \(index) of \(playback.markers.count), \(DisplayFormat.elapsedTime(seconds: target))\(label).")
        return [.jumpPlayback(to: target)]
    }

    /// `B`: the label prompt of the marker at the play head or the last one before it (the
    /// first one when the play head is before every marker), its label selected.
    static func openLabel(_ state: inout AppState) -> [Effect] {
        guard let playback = state.playback else {
            state.say("B labels a marker of the memo that plays: play it (⏎), b marks the play head, then B.")
            return []
        }
        guard let time = playback.markers.last(where: { $0 <= playback.elapsed + 0.05 }) ?? playback.markers.first else {
            state.say("This memo has no markers: b adds one at the play head, then B labels it.")
            return []
        }
        let label = playback.markerLabels[time] ?? ""
        state.mode = .labelingMarker(
            memoID: playback.memoID, time: time, field: TextField(label, maximumLength: state.titleMaximumLength, selected: true))
        return []
    }

    /// The prompt's words: "Label of marker 2 (00:01:03): ", or "Label: " where that would
    /// leave the typed label fewer than `minimumFieldWidth` columns.
    static func promptLabel(time: Double, _ state: AppState) -> String {
        let index = state.playback.flatMap { $0.markers.firstIndex(of: time) }.map { " \($0 + 1)" } ?? ""
        let full = "Label of marker\(index) (\(DisplayFormat.elapsedTime(seconds: time))): "
        return DisplayWidth.of(" " + full) + minimumFieldWidth <= state.width ? full : "Label: "
    }

    /// Columns the label prompt keeps for what is typed before it shortens its words.
    static let minimumFieldWidth = 12

    /// A key in the label prompt: ⏎ keeps the label (empty: none), Esc leaves it as it was.
    static func labelPrompt(_ key: Key, memoID: Int64, time: Double, _ field: inout TextField, _ state: inout AppState) -> [Effect] {
        TextPrompt.handle(
            key, &field, &state, reopen: { .labelingMarker(memoID: memoID, time: time, field: $0) }, problem: { _ in nil }
        ) { label, state in
            let marker = "Marker at \(DisplayFormat.elapsedTime(seconds: time))"
            if var playback = state.playback, playback.memoID == memoID {
                playback.markerLabels[time] = label.isEmpty ? nil : label
                state.playback = playback
            }
            state.say(label.isEmpty ? "\(marker) has no label." : "\(marker) labelled “\(label)”.")
            return [.labelMarker(memoID: memoID, time: time, label: label)]
        }
    }

    static func mark(_ state: inout AppState) -> [Effect] {
        if state.recording != .idle {
            state.say("Marker at \(DisplayFormat.elapsedTime(seconds: state.recordedSeconds)) of the recording.")
            return [.markRecording(label: "")]
        }
        guard var playback = state.playback else {
            state.say("b marks the play head while a memo plays, or the recording while one records.")
            return []
        }
        let time = min(max(playback.elapsed, 0), playback.duration)
        playback.markers = Array(Set(playback.markers + [time])).sorted()
        state.playback = playback
        state.say("Marker at \(DisplayFormat.elapsedTime(seconds: time)); n and N jump between markers, B labels it.")
        return [.addMarker(memoID: playback.memoID, time: time)]
    }
}
