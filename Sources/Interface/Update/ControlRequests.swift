import Vocabulary
import Metering

/// Requests through the control socket, done as the memo table's keys do them (`r`, `s`, `b`),
/// whatever screen or prompt is open, each refused where its key would be. Part of `reduce`; the
/// answer goes to `AppState.controlAnswer`.
enum ControlRequests {
    static func handle(_ request: ControlRequest, _ state: inout AppState) -> [Effect] {
        if state.isQuitting { return refuse("the app is quitting", &state) }
        switch request {
        case .status:
            // The loop answers a status from the state itself; nothing changes.
            return []
        case .toggle:
            if state.recording == .idle {
                guard state.input != nil else {
                    return refuse("no input is open in the app, so there is nothing to record", &state)
                }
                return press("r", answer: "starting a recording", &state)
            }
            return stop(&state)
        case .pause:
            guard state.recording != .idle else { return refuse("nothing is recording in the app", &state) }
            let pausing = state.recording == .recording
            return press("r", answer: pausing ? "paused the recording" : "resumed the recording", &state)
        case .stop:
            guard state.recording != .idle else { return refuse("nothing is recording in the app", &state) }
            return stop(&state)
        case .mark(let label):
            guard state.recording != .idle else { return refuse("nothing is recording in the app", &state) }
            let at = DisplayFormat.elapsedTime(seconds: state.recordedSeconds)
            let named = label.isEmpty ? "" : " “\(label)”"
            state.say("Marker\(named) at \(at) of the recording.")
            state.controlAnswer = .ok("marker\(named) at \(at) of the recording")
            return [.markRecording(label: label)]
        }
    }

    private static func stop(_ state: inout AppState) -> [Effect] {
        let title = state.recordingTitle.map { " “\($0)”" } ?? ""
        return press("s", answer: "stopping and saving\(title)", &state)
    }

    /// The memo table's row for `key`: refused with its reason, or its action (refused when it
    /// does nothing, with what it said).
    private static func press(_ character: Character, answer: String, _ state: inout AppState) -> [Effect] {
        let key = Key.character(character)
        guard let binding = KeyScreen.memoTable.binding(for: key) else { return refuse("no \(character) key", &state) }
        if let refusal = binding.disabled(state) { return refuse(refusal, &state) }
        let effects = binding.action(key, &state)
        // A key that did nothing said why on the status line (voice activation armed): a refusal.
        state.controlAnswer = effects.isEmpty ? .error(state.status?.text ?? "\(character) did nothing") : .ok(answer)
        return effects
    }

    private static func refuse(_ reason: String, _ state: inout AppState) -> [Effect] {
        state.controlAnswer = .error(reason)
        return []
    }
}
