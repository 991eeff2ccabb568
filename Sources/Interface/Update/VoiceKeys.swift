import Metering

/// Voice-activated recording in the reducer: `v` arms and disarms, `V` opens the
/// settings panel, the engine's readings arrive in ticks, and kept takes join the table.
/// Part of `reduce`.
enum VoiceKeys {
    /// What `r` says while voice activation is armed.
    static let recordRefusal = "Voice activation is on (v). Press v to turn it off before recording by hand."

    /// `v`: arms on the open input, or disarms (a take in progress is kept).
    static func toggle(_ state: inout AppState) -> [Effect] {
        if state.voice.isArmed {
            let keeping = state.voice.isRecordingTake
            state.voice.status = nil
            state.voice.armedWith = nil
            state.voice.isArming = false
            state.say(keeping ? "Voice activation off; the take in progress is kept." : "Voice activation off.")
            return [.disarmVoiceActivation]
        }
        guard state.input != nil else {
            state.say("No input is open, so there is nothing to listen to. Press i to choose an input.")
            return []
        }
        guard state.recording == .idle else {
            state.say("A recording is running (r). Press s to stop it before turning on voice activation.")
            return []
        }
        let parameters = state.voice.parameters
        state.voice.armedWith = parameters
        state.voice.isArming = true
        state.voice.status = VoiceActivationSnapshot(
            phase: .listening, levelDB: Decibels.floor, thresholdDB: parameters.thresholdDB, silence: 0,
            hangTime: parameters.silence, hearsSpeech: parameters.listensForSpeech ? false : nil)
        let replay = parameters.replay.armingText.map { "; \($0)" } ?? ""
        state.say("Voice activation on: recording starts at \(parameters.text(.threshold)) and stops after \(parameters.text(.silence)) of silence\(replay). v turns it off.")
        return [.armVoiceActivation(parameters)]
    }

    /// Voice activation is off without `v`: its input went, or arming it failed.
    static func turnedOff(_ state: inout AppState) {
        state.voice.status = nil
        state.voice.armedWith = nil
        state.voice.isArming = false
    }

    /// Takes in the detector's reading from a tick: the engine is the truth.
    static func absorb(_ snapshot: VoiceActivationSnapshot?, into state: inout AppState) {
        if snapshot != nil { state.voice.isArming = false }
        // While arming, the optimistic reading `v` set stands until the engine's first.
        if snapshot == nil, state.voice.isArming { return }
        state.voice.status = snapshot
        if snapshot == nil { state.voice.armedWith = nil }
        // The header's timer counts the take being recorded (a manual recording has its own).
        if let snapshot, snapshot.phase == .recording, state.recording == .idle {
            state.recordedFrames = snapshot.takeFrames
        }
    }

    /// A kept take joins the table (the selection stays on the memo it was on).
    static func takeSaved(_ memo: MemoRow, _ state: inout AppState) {
        if !state.memos.contains(where: { $0.id == memo.id }) {
            state.memos.append(memo)
            state.memos = state.sortOrder.sorted(state.memos)
        }
        state.say("Saved “\(memo.title)” (\(DisplayFormat.elapsedTime(seconds: memo.duration))).")
    }

    /// The settings panel: ↑↓ choose, ←→ or -/+ change, Esc / Enter / V close.
    // The settings panel's keys (their rows: `KeyTable.voiceSettings`).

    /// ↑ ↓ j k Tab: the row above or below.
    static func choose(_ key: Key, _ state: inout AppState) -> [Effect] {
        guard case .voiceSettings(let field) = state.mode else { return [] }
        let fields = SettingsField.allCases
        let up = key == .up || key == .character("k")
        state.mode = .voiceSettings(fields[up ? max(field.index - 1, 0) : min(field.index + 1, fields.count - 1)])
        return []
    }

    /// ← → - + = _ (a step), PgUp PgDn (ten): changes the selected value.
    static func change(_ key: Key, _ state: inout AppState) -> [Effect] {
        guard case .voiceSettings(let field) = state.mode else { return [] }
        let steps =
            switch key {
            case .left, .character("-"), .character("_"): -1
            case .pageDown: -10
            case .pageUp: 10
            default: 1
            }
        adjust(field, by: steps, &state)
        return []
    }

    /// Esc ⏎ V q: closes the panel; changed values re-arm what is armed.
    static func closeSettings(_ state: inout AppState) -> [Effect] {
        state.mode = .browsing
        return apply(&state) + NoiseAlertUpdate.apply(&state)
    }

    private static func adjust(_ field: SettingsField, by steps: Int, _ state: inout AppState) {
        switch field {
        case .voice(let field): state.voice.parameters.adjust(field, by: steps)
        case .replay(let field): state.voice.parameters.replay.adjust(field, by: steps)
        case .alert(let field): state.alert.parameters.adjust(field, by: steps)
        }
    }

    /// On leaving the panel: re-arms with changed parameters unless a take is being
    /// recorded (then they apply from the next `v`). A changed replay alone does not re-arm:
    /// it applies from the next kept take, even the one being recorded.
    private static func apply(_ state: inout AppState) -> [Effect] {
        let parameters = state.voice.parameters
        guard let armed = state.voice.armedWith, armed != parameters else { return [] }
        if armed.detectsLike(parameters) {
            state.voice.armedWith = parameters
            state.say(parameters.replay.armingText.map { "Replay on: \($0) as it ends." } ?? "Replay off.")
            return [.setVoiceReplay(parameters.replay)]
        }
        guard !state.voice.isRecordingTake else {
            state.say("A take is being recorded: the new settings apply when voice activation is turned off and on (v, v).")
            guard armed.replay != parameters.replay else { return [] }
            state.voice.armedWith?.replay = parameters.replay
            return [.setVoiceReplay(parameters.replay)]
        }
        state.voice.armedWith = parameters
        state.voice.isArming = true
        state.say("Voice activation re-armed at \(parameters.text(.threshold)), \(parameters.text(.silence)) of silence.")
        return [.armVoiceActivation(parameters)]
    }
}
