import Metering
import Audio
import SoundFiles
// The options of the app and of the subcommands that read or change the memo library:
// small value types, one per subcommand, so each implementation receives exactly its own.

/// `voicememo [--source S] [--format F] [--rate HZ] [--channels N] [--device D]`: the full-screen app.
public struct AppOptions: Sendable, Equatable {
    /// `--source S`: the input to open; `nil` uses the default (`alsa:default`).
    public var source: InputSource?
    /// `--format F`: what new memos are recorded as; `nil` is the configuration's, else
    /// `RecordingSettings.defaultFormat`.
    public var format: FileFormat?
    /// `--rate HZ`; `nil` is a file source's rate, the configuration's, else `RecordingSettings.defaultSampleRate`.
    public var sampleRate: Int?
    /// `--channels N`; `nil` is a file source's channels, the configuration's, else `RecordingSettings.defaultChannels`.
    public var channels: Int?
    /// `--device D`: the ALSA playback device; `nil` is `default`.
    public var playbackDevice: String?

    public init(
        source: InputSource? = nil, format: FileFormat? = nil, sampleRate: Int? = nil, channels: Int? = nil,
        playbackDevice: String? = nil
    ) {
        self.source = source
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
        self.playbackDevice = playbackDevice
    }
}

/// `voicememo list [--json] [--deleted] [--no-wait]`.
public struct ListOptions: Sendable, Equatable {
    /// `--json`: an array of memos.
    public var json: Bool
    /// `--deleted`: list Recently Deleted instead.
    public var deleted: Bool
    /// `--no-wait`: list at once, leaving killed recordings that need an encode for later.
    public var noWait: Bool

    public init(json: Bool = false, deleted: Bool = false, noWait: Bool = false) {
        self.noWait = noWait
        self.json = json
        self.deleted = deleted
    }
}

/// `voicememo play MEMO [--device D] [--from T]`.
public struct PlayOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// `--device D`: an ALSA playback device name; `nil` uses the default.
    public var device: String?
    /// `--from T`: start this far into the memo.
    public var start: Duration?
    /// `--speed X`: 0.5–3, the pitch kept.
    public var speed: Double?
    /// `--pitch SEMITONES`: −12…+12, the speed kept.
    public var pitch: Double?
    /// `--volume PERCENT`: 0–150.
    public var volume: Double?
    /// `--skip-silence`.
    public var skipsSilence: Bool
    /// `--enhance`.
    public var enhances: Bool
    /// `--json` (streams): events as JSON lines.
    public var json: Bool
    /// `--timeout T` (streams).
    public var timeout: Duration?
    /// `--reconnect N` (streams).
    public var reconnectAttempts: Int?
    /// `--ca-file PATH` (https streams).
    public var certificateAuthorities: String?

    public init(
        memo: String, device: String? = nil, start: Duration? = nil, speed: Double? = nil, pitch: Double? = nil,
        volume: Double? = nil, skipsSilence: Bool = false, enhances: Bool = false, json: Bool = false, timeout: Duration? = nil,
        reconnectAttempts: Int? = nil, certificateAuthorities: String? = nil
    ) {
        self.json = json
        self.timeout = timeout
        self.reconnectAttempts = reconnectAttempts
        self.certificateAuthorities = certificateAuthorities
        self.memo = memo
        self.device = device
        self.start = start
        self.speed = speed
        self.pitch = pitch
        self.volume = volume
        self.skipsSilence = skipsSilence
        self.enhances = enhances
    }
}

/// `voicememo rename MEMO TITLE`.
public struct RenameOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// The new title, exactly as given.
    public var title: String

    public init(memo: String, title: String) {
        self.memo = memo
        self.title = title
    }
}

/// `voicememo delete MEMO`: move to Recently Deleted.
public struct DeleteOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String

    public init(memo: String) {
        self.memo = memo
    }
}

/// `voicememo restore MEMO`: bring back from Recently Deleted.
public struct RestoreOptions: Sendable, Equatable {
    /// An id or a unique title prefix, among the deleted memos.
    public var memo: String

    public init(memo: String) {
        self.memo = memo
    }
}

/// `voicememo purge [MEMO | --all [--yes]]`: delete for good from Recently Deleted.
public struct PurgeOptions: Sendable, Equatable {
    /// What to purge.
    public enum Target: Sendable, Equatable {
        /// One deleted memo, by id or unique title prefix.
        case memo(String)
        /// Everything in Recently Deleted.
        case all
    }

    public var target: Target
    /// `--yes`: purge everything without asking (needed for `--all` when the input is not a
    /// terminal, since nothing could be asked there).
    public var confirmed: Bool

    public init(target: Target, confirmed: Bool = false) {
        self.target = target
        self.confirmed = confirmed
    }
}

/// `voicememo export MEMO PATH [--format F]`.
public struct ExportOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// Where to write the audio; `nil` with `labels` alone.
    public var path: String?
    /// `--labels FILE`: where to write the markers as an Audacity label track.
    public var labels: String?
    /// `--format F`; `nil` means from the extension of `path`, else the memo's own format.
    public var format: FileFormat?
    /// `--force`: replace a file already at `path`.
    public var force: Bool
    /// `--loudness LUFS` and `--true-peak DBTP`: the copy normalised to this target.
    public var loudness: LoudnessTarget?
    /// `--enhance`: the copy's noise suppressed (before `--loudness`).
    public var enhance: Bool

    public init(
        memo: String, path: String?, labels: String? = nil, format: FileFormat? = nil, force: Bool = false,
        loudness: LoudnessTarget? = nil, enhance: Bool = false
    ) {
        self.enhance = enhance
        self.memo = memo
        self.path = path
        self.labels = labels
        self.format = format
        self.force = force
        self.loudness = loudness
    }
}

/// `voicememo devices`. No options yet.
public struct DevicesOptions: Sendable, Equatable {
    public init() {}
}

/// `voicememo recover`.
public struct RecoverOptions: Sendable, Equatable {
    public init() {}
}

/// `voicememo mark MEMO AT [--label TEXT]`.
public struct MarkOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// Where, from the memo's start.
    public var time: Duration
    public var label: String?

    public init(memo: String, time: Duration, label: String? = nil) {
        self.memo = memo
        self.time = time
        self.label = label
    }
}
