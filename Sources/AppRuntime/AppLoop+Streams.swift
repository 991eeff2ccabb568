import Audio
import Dispatch
import Interface
import Streaming

/// A network stream in the app (`o`): a `StreamPlayer` on the app's playback device. Making
/// and starting it is quick (the player connects, buffers and decodes on a thread of its
/// own); stopping it joins that thread, so it is stopped on the effect runner. Its events
/// come back on the UI queue as `Action.streamUpdate`, its levels at each tick as
/// `Action.streamProgress`. `R` (`Effect.recordStream`) is `selectInput` with a recording:
/// the input becomes `url:URL`, a second connection to the stream.
extension AppLoop {
    func playStream(_ url: String) {
        stopStream()
        streamGeneration += 1
        let generation = streamGeneration
        let player = StreamPlayer(url: url, device: playbackDevice, eventQueue: queue) { [self] event in
            streamReported(event, generation: generation)
        }
        streamPlayer = player
        scheduleTimer()
        player.play()
    }

    /// Lets the player go at once; the runner stops it (closing the connection and the device).
    func stopStream() {
        guard let old = streamPlayer else { return }
        streamPlayer = nil
        scheduleTimer()
        onRunner(tracked: false) { _ in
            old.stop()
            return {}
        }
    }

    /// The levels played since the last tick and the time played.
    func streamSnapshot(_ player: StreamPlayer) -> StreamSnapshot {
        player.updateMeters()
        let channels = (0..<(player.streamDescription?.format.channels ?? 0)).map {
            ChannelLevel(average: player.averagePower(forChannel: $0), peak: player.peakPower(forChannel: $0))
        }
        return StreamSnapshot(played: player.playedSeconds, channels: channels)
    }

    /// An event of the player (on the UI queue); those of a player already replaced are dropped.
    private func streamReported(_ event: StreamEvent, generation: Int) {
        guard generation == streamGeneration, streamPlayer != nil else { return }
        let update: StreamUpdate
        switch event {
        case .buffering(let seconds):
            update = .buffering(seconds: seconds)
        case .playing(let stream):
            update = .playing(name: stream.name, channels: stream.format.channels, isLive: stream.isLive)
        case .title(let title):
            update = .title(title)
        case .slow:
            update = .slow(message: StreamEventText.line(for: event) ?? "slow")
        case .reconnecting:
            update = .reconnecting(message: StreamEventText.line(for: event) ?? "Reconnecting…")
        case .finished:
            stopStream()
            update = .finished
        case .failed(let error):
            stopStream()
            update = .failed(Self.failure(error))
        }
        dispatch(.streamUpdate(update))
        render()
    }

    /// What failed, for the status line: a timeout as a value (its CLI words name the
    /// `--timeout` flag, which the app has not), any other cause in the stream's own words.
    static func failure(_ error: StreamError) -> StreamFailure {
        guard case .timeout(let seconds) = error.kind else { return .stream(detail: error.description) }
        return .noData(server: error.server, seconds: seconds)
    }
}
