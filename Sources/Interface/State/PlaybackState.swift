/// The memo being played (or paused in playback), as the screen shows it.
///
/// `AppState.playback` is `nil` when nothing plays. While it is set, the meter rows show
/// the playback levels (`meters`) instead of the input's, and the header shows the
/// play head, the length and a progress bar.
public struct PlaybackState: Sendable, Equatable {
    public var memoID: Int64
    /// The title when playback started (the header follows renames through `memos`).
    public var title: String
    /// The play head in seconds: what has been heard.
    public var elapsed: Double = 0
    /// The memo's length in seconds, as the player measured it.
    public var duration: Double
    public var isPaused = false
    /// One per channel of the memo.
    public var meters: [ChannelMeter]
    /// The memo's markers, seconds from its start, in order (`b` adds, `n`/`N` jump).
    public var markers: [Double] = []
    /// The labels of the markers that have one, by their time in `markers` (`B` gives one).
    public var markerLabels: [Double: String] = [:]
    /// Seconds of silence skipped so far (skip silence), from the player.
    public var skippedSeconds: Double = 0
    /// Samples the volume has clipped so far, from the player.
    public var clippedSamples = 0
    /// `clippedSamples` when the volume last changed: more than that means the current
    /// volume clips.
    public var clippedSamplesAtVolumeChange = 0

    public init(memoID: Int64, title: String, duration: Double, channels: Int) {
        self.memoID = memoID
        self.title = title
        self.duration = max(duration.isFinite ? duration : 0, 0)
        meters = Array(repeating: ChannelMeter(), count: max(channels, 0))
    }

    /// How far the play head is, 0…1 (0 for an empty memo).
    public var fraction: Double {
        guard duration > 0, elapsed.isFinite else { return 0 }
        return min(max(elapsed / duration, 0), 1)
    }

    /// Whether the current volume has clipped samples (it can only above 100 %).
    public var isClipping: Bool { clippedSamples > clippedSamplesAtVolumeChange }
}

/// What the runner read from the player at one tick.
public struct PlaybackSnapshot: Sendable, Hashable {
    /// The play head in seconds.
    public var elapsed: Double
    /// One entry per channel of the memo: the levels played since the previous tick.
    public var channels: [ChannelLevel]
    /// Seconds of silence skipped since playback started.
    public var skippedSeconds: Double
    /// Samples the volume clipped since playback started.
    public var clippedSamples: Int

    public init(elapsed: Double, channels: [ChannelLevel], skippedSeconds: Double = 0, clippedSamples: Int = 0) {
        self.elapsed = elapsed
        self.channels = channels
        self.skippedSeconds = skippedSeconds
        self.clippedSamples = clippedSamples
    }
}

extension AppState {
    /// The meters the LED rows show: playback's while a memo plays, else the input's.
    public var shownMeters: [ChannelMeter] {
        playback?.meters ?? stream.flatMap { $0.meters.isEmpty ? nil : $0.meters } ?? meters
    }

    /// The title of the memo that plays, following renames.
    public var playingTitle: String? {
        guard let playback else { return nil }
        return memos.first { $0.id == playback.memoID }?.title ?? playback.title
    }
}
