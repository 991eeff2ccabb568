/// Keys against the work in flight (`AppState.work`), decided before the mode's own
/// keys. Part of `reduce`.
///
/// The effect runner performs its work one piece at a time, in order, so most keys need
/// nothing here: what they ask for is queued behind the work and the table already shows
/// it (a rename, a delete). A key is refused, with a message saying why, only where
/// queueing would surprise: starting a second recording while the first is still being
/// created, stopping a recording that is already being saved, recording or choosing an
/// input while an input is being opened. `q` with work in flight asks first, then waits
/// for the work (nothing is left half-written). Once quitting, every key is answered
/// with what the app is waiting for.
enum WorkUpdate {
    /// The effects of `key` if the work in flight decides it (a refusal is `[]` with a
    /// message); `nil` leaves the key to the mode.
    static func refusal(of key: Key, in state: inout AppState) -> [Effect]? {
        if state.isQuitting {
            let waiting = state.work.first.map { "\($0.summary)…" } ?? "Quitting…"
            state.say("\(waiting) The app quits when it is done.")
            return []
        }
        guard state.mode == .browsing else { return nil }
        switch key {
        case .character("q") where state.recording == .idle && !state.voice.isRecordingTake && !state.work.isEmpty:
            // Opening or listing inputs leaves nothing half-done: the loop abandons it and quits.
            if state.work.allSatisfy(\.kind.isAbandonedByQuitting) { return nil }
            state.mode = .confirmingQuit
            return []
        case .character("r"):
            if state.hasWork({ $0 == .startingRecording }) {
                return refuse("The recording is being started; r pauses it once the timer runs.", &state)
            }
            if let opening = openingInput(state) {
                return refuse("\(opening) is being opened; press r once the meter moves.", &state)
            }
            guard state.recording == .idle, !state.voice.isArmed, state.input != nil else { return nil }
            // A save that takes long (encoding the backlog of a long MP3) would start the
            // new recording minutes after r: refused, with how far the save is. A quick one
            // (not yet on the status line) is waited for.
            if let saving = state.work.first, case .saving = saving.kind, state.now - saving.startedAt >= WorkInFlight.visibleAfter {
                return refuse("Still saving the last memo; press r again once it is saved.", &state)
            }
            if let saving = savingTitle(state) {
                state.say("Recording starts once “\(saving)” is saved.")
            } else if state.isLibraryLoading {
                state.say("Recording starts once the library is open.")
            }
            return nil
        case .character("s") where state.recording == .idle && !state.voice.isArmed && state.playback == nil:
            if let saving = savingTitle(state) { return refuse("Already saving “\(saving)”.", &state) }
            if state.hasWork({ $0 == .startingRecording }) {
                return refuse("The recording is being started; press s again once the timer runs.", &state)
            }
            return nil
        case .character("i"), .character("v"):
            if let opening = openingInput(state) { return refuse("\(opening) is being opened.", &state) }
            if state.hasWork({ $0 == .startingRecording }) {
                return refuse("The recording is being started; wait for the timer to run.", &state)
            }
            return nil
        default:
            return nil
        }
    }

    /// The title of a memo being saved, if one is.
    static func savingTitle(_ state: AppState) -> String? {
        for work in state.work {
            if case .saving(let title) = work.kind { return title }
        }
        return nil
    }

    /// The name of an input being opened, if one is.
    private static func openingInput(_ state: AppState) -> String? {
        for work in state.work {
            if case .openingInput(let name) = work.kind { return name }
        }
        return nil
    }

    private static func refuse(_ message: String, _ state: inout AppState) -> [Effect] {
        state.say(message)
        return []
    }
}
