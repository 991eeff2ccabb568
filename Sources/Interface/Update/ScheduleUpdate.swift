import Metering

/// The scheduled recording (`ScheduledRecording`): started when its time comes, stopped after
/// its duration, `r` starting it at once and `s` cancelling it while it waits. The loop sends
/// `Action.scheduleReached` when `AppState.scheduleIsDue` says so.
enum ScheduleUpdate {
    /// Its time came, or its duration was recorded.
    static func reached(at time: Double, _ state: inout AppState) -> [Effect] {
        if let scheduled = state.scheduled, time >= scheduled.start {
            state.scheduled = nil
            guard state.recording == .idle, !state.voice.isArmed, state.input != nil else {
                let why = state.input == nil ? "no input is open" : state.voice.isArmed ? "voice activation is on" : "a recording runs"
                state.fail("The recording scheduled for \(scheduled.label) did not start: \(why).")
                return []
            }
            state.scheduledStop = scheduled.duration
            return KeyHandling.recordKey(&state)
        }
        if let stop = state.scheduledStop, state.recording != .idle, state.recordedSeconds >= stop {
            state.scheduledStop = nil
            return KeyHandling.stopKey(&state)
        }
        return []
    }

    /// `r` while a recording waits for its time: it starts now (its duration still holds).
    static func startNow(_ state: inout AppState) {
        guard let scheduled = state.scheduled, state.recording == .idle else { return }
        state.scheduled = nil
        state.scheduledStop = scheduled.duration
    }

    /// `s` while a recording waits for its time: the schedule is cancelled.
    static func cancel(_ state: inout AppState) -> [Effect]? {
        guard let scheduled = state.scheduled, state.recording == .idle else { return nil }
        state.scheduled = nil
        state.say("The recording scheduled for \(scheduled.label) is cancelled.")
        return []
    }
}

extension AppState {
    /// Whether the loop should send `Action.scheduleReached` now: the scheduled start's time
    /// has come, or the scheduled recording has its duration.
    public func scheduleIsDue(at time: Double) -> Bool {
        if let scheduled, time >= scheduled.start { return true }
        if let scheduledStop, recording != .idle, recordedSeconds >= scheduledStop { return true }
        return false
    }

    /// What the status line says while a recording waits for its time.
    var scheduleMessage: String? {
        guard let scheduled, recording == .idle else { return nil }
        let duration = scheduled.duration.map { " for " + DisplayFormat.elapsedTime(seconds: $0) } ?? ""
        return "Recording starts at \(scheduled.label)\(duration); r starts it now, s cancels."
    }
}
