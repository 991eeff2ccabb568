/// The noise alert's part of `reduce`: the settings panel turns it on and off, the
/// detector's alerts arrive in ticks, each rings the bell once and takes the status line.
///
/// The detector is the CLI's (`LevelAlert`, run on the capture thread by the runner's
/// `LevelAlertTap`): the reducer decides nothing about levels, it shows what fired.
enum NoiseAlertUpdate {
    /// On leaving the panel: starts, changes or stops the detector when its parameters changed.
    static func apply(_ state: inout AppState) -> [Effect] {
        let parameters = state.alert.parameters
        let wanted: NoiseAlertParameters? = parameters.isOn ? parameters : nil
        guard wanted != state.alert.armedWith else { return [] }
        state.alert.armedWith = wanted
        state.alert.last = nil
        state.alert.firedAt = nil
        state.alert.hasReArmed = true
        guard state.input != nil else {
            if wanted != nil { state.say("Noise alert on; it listens once an input is open (i).") }
            return []
        }
        if let wanted {
            state.say("Noise alert on: bell and message when the level stays above \(wanted.text(.level)) for \(wanted.text(.hold)).")
        } else {
            state.say("Noise alert off.")
        }
        return [.setNoiseAlert(wanted)]
    }

    /// A new input: the detector, if on, runs on it.
    static func inputOpened(_ state: inout AppState) -> [Effect] {
        state.alert.last = nil
        state.alert.firedAt = nil
        state.alert.hasReArmed = true
        guard state.alert.parameters.isOn else {
            state.alert.armedWith = nil
            return []
        }
        state.alert.armedWith = state.alert.parameters
        return [.setNoiseAlert(state.alert.parameters)]
    }

    /// The detector's reading from a tick: a bell per alert, the last alert on the status line.
    static func absorb(_ snapshot: NoiseAlertSnapshot?, at time: Double, into state: inout AppState) -> [Effect] {
        guard let snapshot, state.alert.armedWith != nil else { return [] }
        state.alert.hasReArmed = snapshot.isArmed
        guard let last = snapshot.alerts.last else { return [] }
        state.alert.last = last
        state.alert.firedAt = time
        state.alert.count += snapshot.alerts.count
        return snapshot.alerts.map { _ in .ringBell }
    }
}

/// The capture keys' part of `reduce`: `<` and `>` lower and raise the open input's capture
/// volume, `M` flips its switch, on the effect runner; the answer goes on the status line.
enum CaptureGainUpdate {
    static func change(_ change: CaptureGainChange, _ state: inout AppState) -> [Effect] {
        guard let input = state.input else {
            state.say("No input is open, so there is no capture volume to change. Press i to choose an input.")
            return []
        }
        guard input.hasCaptureMixer else {
            state.say("\(input.name) has no capture volume: only ALSA inputs (alsa:NAME) and the sound server's sources (pulse:NAME) have one.")
            return []
        }
        return [.changeCaptureGain(change)]
    }

    static func apply(_ action: Action, to state: inout AppState) -> [Effect] {
        switch action {
        case .captureGainRead(let reading, let changed):
            state.captureGain = reading
            if changed { state.say(reading.text) }
        case .captureGainFailed(let failure, let changed):
            state.captureGain = nil
            // A read the user did not ask for (the input turned silent) fails quietly.
            if changed { state.say(failure.message) }
        default:
            break
        }
        return []
    }
}
