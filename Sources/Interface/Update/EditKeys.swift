import Vocabulary
import Metering

/// Editing on the memo table, part of `reduce`: while a memo plays, `(` and `)` set the in and
/// out points at the play head, `X` trims the memo to in … out (a point not set is the start
/// or the end), `S` splits it at the play head; `Z` shortens every pause of the memo that
/// plays, else the selected one, to half a second (`trim --remove-silences`). Each asks y/N
/// first; `y` hands the edit to the effect runner (`Effect.editMemo`: the library's trim,
/// split or silence removal, the one the CLI uses), whose progress shows on the status line.
/// The original goes to Recently Deleted, and `u` brings it back (the new memos go there
/// instead).
///
/// Refused with a message that says why: no play head (nothing plays) for `(` `)` `S`; `X`
/// with no point set, with in at or after out, or covering the whole memo; `Z` with no memo;
/// any edit of a memo being recorded (the library refuses it too). A memo without a pause to
/// remove is the library's refusal, said on the status line.
enum EditKeys {
    // MARK: The keys

    static func setPoint(isIn: Bool, _ state: inout AppState) -> [Effect] {
        guard let playback = state.playback else {
            return refuse("( and ) set the in and out points at the play head: play a memo first (⏎), then X trims.", &state)
        }
        var points = state.editPoints.flatMap { $0.memoID == playback.memoID ? $0 : nil } ?? EditPoints(memoID: playback.memoID)
        let time = min(max(playback.elapsed, 0), playback.duration)
        if isIn { points.inPoint = time } else { points.outPoint = time }
        state.editPoints = points
        let start = points.inPoint ?? 0
        let end = points.outPoint ?? playback.duration
        let which = isIn ? "In" : "Out"
        if start >= end {
            state.say("\(which) point at \(DisplayFormat.seconds(time)): in is not before out, so X would keep nothing; set them again.")
        } else {
            state.say("\(which) point at \(DisplayFormat.seconds(time)). X keeps \(DisplayFormat.seconds(start)) … \(DisplayFormat.seconds(end)).")
        }
        return []
    }

    /// `P`: plays what `X` would keep, from the in point, pausing at the out point (within a
    /// tick of it: the reducer pauses when the play head passes it).
    static func preview(_ state: inout AppState) -> [Effect] {
        guard var playback = state.playback, let points = state.editPoints, points.memoID == playback.memoID,
            points.inPoint != nil || points.outPoint != nil
        else {
            return refuse("P previews what X keeps: while a memo plays, set ( and ) first.", &state)
        }
        let start = points.inPoint ?? 0
        let end = min(points.outPoint ?? playback.duration, playback.duration)
        guard start < end else {
            return refuse("The in point is not before the out point: nothing to preview. Set them again with ( and ).", &state)
        }
        var effects: [Effect] = [.jumpPlayback(to: start)]
        if playback.isPaused { effects.append(.resumePlayback) }
        playback.elapsed = start
        playback.isPaused = false
        state.playback = playback
        state.previewEnd = end
        state.say("Previewing \(DisplayFormat.seconds(start)) … \(DisplayFormat.seconds(end)): what X keeps.")
        return effects
    }

    /// After the play head moved: pauses at the preview's end.
    static func endPreview(_ state: inout AppState) -> [Effect] {
        guard let end = state.previewEnd else { return [] }
        guard var playback = state.playback else {
            state.previewEnd = nil
            return []
        }
        guard playback.elapsed >= end, !playback.isPaused else { return [] }
        state.previewEnd = nil
        playback.isPaused = true
        state.playback = playback
        state.say("Preview ended at the out point (\(DisplayFormat.seconds(end))). X trims to it; space plays on.")
        return [.pausePlayback]
    }

    static func askTrim(_ state: inout AppState) -> [Effect] {
        guard let points = state.editPoints, points.inPoint != nil || points.outPoint != nil else {
            return refuse("No in or out point: while a memo plays, ( sets the in point and ) the out point at the play head; then X trims.", &state)
        }
        guard let memo = state.memos.first(where: { $0.id == points.memoID }) else {
            state.editPoints = nil
            return refuse("The memo the in and out points were set on is no longer in the list.", &state)
        }
        if let refusal = recordingRefusal(memo, verb: "trimmed", state) { return refuse(refusal, &state) }
        let duration = length(of: memo, state)
        let start = points.inPoint ?? 0
        let end = min(points.outPoint ?? duration, duration)
        guard start < end else {
            return refuse("The in point (\(DisplayFormat.seconds(start))) is not before the out point (\(DisplayFormat.seconds(end))): nothing would be kept. Set them again with ( and ).", &state)
        }
        guard start > 0 || end < duration else {
            return refuse("In and out cover the whole memo: nothing to trim. Set ( or ) inside it.", &state)
        }
        state.mode = .confirmingEdit(.trim(memoID: memo.id, title: memo.title, start: start, end: end))
        return []
    }

    static func askSplit(_ state: inout AppState) -> [Effect] {
        guard let playback = state.playback else {
            return refuse("S splits the memo that plays at the play head: play it first (⏎).", &state)
        }
        let title = state.playingTitle ?? playback.title
        if let memo = state.memos.first(where: { $0.id == playback.memoID }),
            let refusal = recordingRefusal(memo, verb: "split", state)
        {
            return refuse(refusal, &state)
        }
        let time = playback.elapsed
        guard time > 0, time < playback.duration else {
            return refuse("The play head is at an end of “\(title)”: nothing to split off. Move it inside (← → , . 0-9).", &state)
        }
        state.mode = .confirmingEdit(.split(memoID: playback.memoID, title: title, at: time))
        return []
    }

    static func askRemoveSilences(_ state: inout AppState) -> [Effect] {
        let playing = state.playback.flatMap { playback in state.memos.first { $0.id == playback.memoID } }
        guard let memo = playing ?? state.selectedMemo else {
            return refuse("Z removes the pauses of a memo: select one (↑ ↓) or play it first.", &state)
        }
        if let refusal = recordingRefusal(memo, verb: "edited", state) { return refuse(refusal, &state) }
        state.mode = .confirmingEdit(.removeSilences(memoID: memo.id, title: memo.title))
        return []
    }

    /// `F`: the memo that plays, else the selected one, enhanced as a new memo (asks first).
    static func askEnhance(_ state: inout AppState) -> [Effect] {
        let playing = state.playback.flatMap { playback in state.memos.first { $0.id == playback.memoID } }
        guard let memo = playing ?? state.selectedMemo else {
            return refuse("F makes an enhanced copy of a memo: select one (↑ ↓) or play it first.", &state)
        }
        if let refusal = recordingRefusal(memo, verb: "enhanced", state) { return refuse(refusal, &state) }
        state.mode = .confirmingEdit(.enhance(memoID: memo.id, title: memo.title))
        return []
    }

    /// Why memo `memo` cannot be edited now, if it is being recorded.
    static func recordingRefusal(_ memo: MemoRow, verb: String, _ state: AppState) -> String? {
        guard memo.state == .recording || memo.id == state.recordingMemoID || memo.id == state.savingRecording?.id else { return nil }
        return "“\(memo.title)” is being recorded; it can be \(verb) once the recording stops."
    }

    /// The memo's length: the player's when it plays (what the play head moves over).
    private static func length(of memo: MemoRow, _ state: AppState) -> Double {
        if let playback = state.playback, playback.memoID == memo.id { return playback.duration }
        return memo.duration
    }

    /// The prompt `X` and `S` open.
    static func question(_ request: EditRequest, width: Int) -> Confirmation {
        let title = TextFitting.truncated(request.title, toWidth: max(width / 3, 8))
        let original = "The original goes to Recently Deleted."
        let answer = Confirmation.answer
        switch request {
        case .trim(_, _, let start, let end):
            let question = "Trim “\(title)” to \(DisplayFormat.seconds(start)) … \(DisplayFormat.seconds(end))?"
            return Confirmation(full: "\(question) \(original) \(answer)", short: "\(question) \(answer)")
        case .split(_, _, let time):
            let question = "Split “\(title)” in two at \(DisplayFormat.seconds(time))?"
            return Confirmation(full: "\(question) \(original) \(answer)", short: "\(question) \(answer)")
        case .enhance:
            let question = "Make “\(title)” with its background noise suppressed? \(answer)"
            return Confirmation(full: "\(question) f while playing previews it; the original goes to Recently Deleted.", short: question)
        case .removeSilences:
            // (y/N) right after the question: it ends the first row, where the rest wraps below.
            let question = "Cut each pause of “\(title)” to \(SilenceRemoval.defaultKeptPause) s? \(answer)"
            return Confirmation(
                full: "\(question) Below \(Int(SilenceRemoval.defaultThreshold)) dBFS is a pause; the original goes to Recently Deleted.",
                short: question)
        case .cutWords(_, _, let span):
            let question = "Cut \(span.count) word\(span.count == 1 ? "" : "s") (\(span.quoted)) out of “\(title)”? \(answer)"
            return Confirmation(full: "\(question) The cut falls in the pauses around them; the original goes to Recently Deleted.", short: question)
        case .keepWords(_, _, let span):
            let question = "Keep only \(span.count) word\(span.count == 1 ? "" : "s") (\(span.quoted)) of “\(title)”? \(answer)"
            return Confirmation(full: "\(question) The trim falls in the pauses around them; the original goes to Recently Deleted.", short: question)
        }
    }

    static func confirm(_ key: Key, _ request: EditRequest, _ state: inout AppState) -> [Effect] {
        state.mode = .browsing
        let byWords = switch request {
        case .cutWords, .keepWords: true
        default: false
        }
        guard key == .character("y") || key == .character("Y") else {
            // Asked from the transcript view: back there, the selection as it was.
            if byWords, state.transcriptView != nil { state.mode = .transcript }
            state.say("Not changed.")
            return []
        }
        // The new memo is selected on the table; its transcript is T away.
        if byWords { state.transcriptView = nil }
        state.editPoints = nil
        state.say("\(request.inProgress)…")
        // The original's file moves to Recently Deleted: it must not be playing.
        return PlaybackUpdate.stoppingPlayback(ofMemo: request.memoID, &state) + [.editMemo(request)]
    }

    /// `u` for an edit: the original back, the memos it made to Recently Deleted.
    static func undo(originalID: Int64, title: String, madeIDs: [Int64], _ state: inout AppState) -> [Effect] {
        guard state.deletedMemos.contains(where: { $0.id == originalID }) else {
            state.fail(UndoEntry.restoredElsewhere(title))
            return []
        }
        var stops: [Effect] = []
        for id in madeIDs { stops += PlaybackUpdate.stoppingPlayback(ofMemo: id, &state) }
        // The original takes the place of what the edit made at once, selected (the library's
        // answer lists what the edit made in Recently Deleted).
        state.memos.removeAll { madeIDs.contains($0.id) }
        KeyHandling.showRestored(originalID, &state)
        state.selectMemo(id: originalID)
        state.say("Bringing back “\(title)”; what the edit made goes to Recently Deleted.")
        return stops + [.undoEdit(originalID: originalID, madeIDs: madeIDs)]
    }

    // MARK: Results

    static func apply(_ action: Action, to state: inout AppState) -> [Effect] {
        switch action {
        case .memoEdited(let outcome):
            state.undoStack.append(.edited(originalID: outcome.originalID, title: outcome.title, madeIDs: outcome.made.map(\.id)))
            let lengths = outcome.made.map { DisplayFormat.seconds($0.duration) }.joined(separator: " and ")
            let what = switch outcome.request {
            case .trim: "Trimmed “\(outcome.title)” to \(lengths)"
            case .split: "Split “\(outcome.title)” into \(lengths)"
            case .removeSilences: "Removed the pauses of “\(outcome.title)”: \(DisplayFormat.seconds(outcome.originalDuration)) → \(lengths)"
            case .enhance: "Enhanced “\(outcome.title)”: its background noise suppressed"
            case .cutWords(_, _, let span): "Cut \(span.quoted) out of “\(outcome.title)”: \(DisplayFormat.seconds(outcome.originalDuration)) → \(lengths)"
            case .keepWords(_, _, let span): "Kept \(span.quoted) of “\(outcome.title)”: \(lengths)"
            }
            let lossy = outcome.reencoded ? " (a lossy format: the kept audio was encoded again)" : ""
            state.say("\(what)\(lossy). The original is in Recently Deleted; u brings it back.")
            // The library's answer (the reload after it) lists them; select the first now.
            for memo in outcome.made where !state.memos.contains(where: { $0.id == memo.id }) {
                state.memos.append(memo)
            }
            state.memos.removeAll { $0.id == outcome.originalID }
            state.memos = state.sortOrder.sorted(state.memos)
            // Found by its words under the filter: the library moved the words to the new memos,
            // so they are shown in its place until the search, asked again, says which hold them.
            var effects: [Effect] = []
            if let match = state.transcriptMatch(for: outcome.originalID) {
                for memo in outcome.made {
                    state.transcriptMatches[memo.id] = TranscriptMatch(
                        memoID: memo.id, time: min(match.time, memo.duration), snippet: match.snippet)
                }
                effects += TranscriptUpdate.searchAgain(state)
            }
            state.selectMemo(id: outcome.made.first?.id)
            return effects
        case .waveformLoaded(let memoID, let envelope):
            state.waveform = WaveformState(memoID: memoID, envelope: envelope)
        default:
            break
        }
        return []
    }

    private static func refuse(_ message: String, _ state: inout AppState) -> [Effect] {
        state.say(message)
        return []
    }
}

extension AppState {
    /// The memo the waveform band shows: the one that plays, else the selected one (in the
    /// memo table); `nil` when the band has no room (the runner then reads no envelope).
    public var wantedWaveform: Int64? {
        let probe = Layout(width: width, height: height, channels: meterRowCount, waveformRows: WaveformBandView.rows)
        guard probe.waveform != nil else { return nil }
        return playback?.memoID ?? selectedMemo?.id
    }
}
