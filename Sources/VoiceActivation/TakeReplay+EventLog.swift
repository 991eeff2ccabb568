import Platform
import Audio

extension TakeReplay {
    /// Replays memo `id`'s file (`Audio.TakeReplay.play`) between the event log's
    /// `replay_start ID` and `replay_end ID` (written once the input is heard again): the
    /// moments `VoxReplayTests` and the app's replay test measure from. `record --vox --replay`
    /// and the app's voice activation both replay through here.
    ///
    /// - Throws: `PlayerError` when the file or the device cannot be played; listening goes on.
    public func replay(_ path: String, memoID id: Int64, pitchSemitones: Double, eventLog: EventLog?) throws(PlayerError) {
        guard !isInterrupted else { return }
        eventLog?.note("replay_start \(id)")
        defer { eventLog?.note("replay_end \(id)") }
        try play(path, pitchSemitones: pitchSemitones)
    }
}
