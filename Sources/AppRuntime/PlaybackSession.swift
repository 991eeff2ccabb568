import Audio
import Dispatch
import Interface
import MemoLibrary

/// The memo being played: an adjustable `Player` on the app's playback device (speed,
/// pitch, volume and skip silence change while it plays), started at once, whose end or
/// failure arrives as one call on the app's queue.
final class PlaybackSession: Sendable {
    let memo: Memo
    let player: Player

    /// Opens the memo's file and the device and starts playing, from `start` seconds.
    ///
    /// - Parameters:
    ///   - onEnd: called on `queue` when playback ends by itself: `nil` at the end of
    ///     the memo, the error when decoding or the device failed. Not called after `stop()`.
    /// - Throws: `PlayerError` when the file or the device cannot be opened.
    init(
        memo: Memo, from start: Double = 0, device: String, settings: PlaybackSettings = PlaybackSettings(),
        queue: DispatchQueue,
        onEnd: @escaping @Sendable (PlayerError?) -> Void
    ) throws(PlayerError) {
        let events = PlayerEvents(
            didFinishPlaying: { successfully in
                // An unsuccessful finish follows `decodeErrorDidOccur`, which reported it.
                if successfully { onEnd(nil) }
            },
            decodeErrorDidOccur: { error in onEnd(error) })
        self.memo = memo
        player = try Player(url: memo.path, device: device, adjustable: true, eventQueue: queue, events: events)
        try player.setAdjustments(settings.adjustments)
        // Clamped to the memo by the player.
        if start > 0 { player.currentTime = start }
        try player.play()
    }

    /// Reads the meters and the play head.
    func snapshot() -> PlaybackSnapshot {
        player.updateMeters()
        let channels = (0..<player.numberOfChannels).map {
            ChannelLevel(average: player.averagePower(forChannel: $0), peak: player.peakPower(forChannel: $0))
        }
        return PlaybackSnapshot(
            elapsed: player.currentTime, channels: channels, skippedSeconds: player.skippedSeconds,
            clippedSamples: player.clippedSamples)
    }

    /// Plays on with `settings` from the next period (20 ms).
    func adjust(_ settings: PlaybackSettings) throws(PlayerError) {
        try player.setAdjustments(settings.adjustments)
    }

    func pause() {
        player.pause()
    }

    func resume() throws(PlayerError) {
        try player.play()
    }

    /// Moves the play head by `seconds` (the player keeps it within the memo).
    func seek(by seconds: Double) {
        player.currentTime = player.currentTime + seconds
    }

    /// Moves the play head to `seconds` into the memo.
    func jump(to seconds: Double) {
        player.currentTime = seconds
    }

    /// Stops and releases the device.
    func stop() {
        player.stop()
    }

    /// The status-line words for a playback failure: what could not be played and why,
    /// and for the device, how to choose another. ALSA's own name for the cause is left
    /// out when a plainer one is there, e.g. "Cannot play “Idea”: the playback device
    /// 'default' cannot be opened (no such device). Press O to choose where memos play."
    static func failure(_ error: PlayerError, title: String, device: String) -> AppFailure {
        if error.kind == .device, let alsa = error.cause?.deviceOpenFailure {
            return .playbackDeviceNotOpened(title: title, device: device, reason: alsa.reasonWithDetail)
        }
        return .playbackNotStarted(title: title, detail: error.message)
    }
}

extension PlaybackSettings {
    /// The player's adjustments for these settings.
    var adjustments: PlaybackAdjustments {
        PlaybackAdjustments(
            speed: speed, pitchSemitones: Double(pitchSemitones), volume: Double(volumePercent) / 100,
            skipsSilence: skipsSilence, enhances: enhances)
    }
}
