import Vocabulary

/// One memo as the app shows it: the table's row, the details screen (`I`), Recently Deleted.
///
/// Interface's own value, mapped from the library's `Memo` at the edge (`VoiceMemoCLI/App`,
/// `MemoRow(_:)`): no Foundation `Date` (times are seconds since 1970, which `CivilTime`
/// turns into the local date and time) and no file to open. `fileShown` is where the file is,
/// as text for the details screen; nothing here reads or writes it: every effect names a memo
/// by its `id` and the edge finds the file (`Effect.play` included).
public struct MemoRow: Sendable, Hashable, Identifiable {
    /// Where a memo is in its life (the library's `Memo.State`).
    public enum State: Sendable, Hashable, CaseIterable {
        /// Being recorded now (or its recorder died; recovery turns it into `recovered`).
        case recording
        /// Recorded and closed normally.
        case complete
        /// Repaired after its recorder died mid-recording.
        case recovered
        /// The index knows it but its file is gone.
        case missing
        /// The file is there but cannot be read as audio.
        case damaged
    }

    /// Stable, unique, never reused.
    public var id: Int64
    /// As stored: any Unicode (the views make it safe for the terminal).
    public var title: String
    /// When it was recorded, in seconds since 1970.
    public var created: Double
    /// Seconds of audio (frames ÷ sample rate).
    public var duration: Double
    public var frames: Int64
    public var sampleRate: Int
    public var channels: Int
    /// The file format's name as the library spells it (`flac`, `wav`, `mp3`).
    public var format: String
    /// The encoding's name as the library spells it (`pcm16`, `float`, `vorbis`).
    public var encoding: String
    /// Where the audio file is, as text to show (the details screen's File line).
    public var fileShown: String
    /// Bytes on disk.
    public var size: Int64
    /// The highest sample peak in dBFS (−160 for silence or unknown).
    public var peakDB: Double
    public var state: State
    /// Integrated loudness in LUFS; `nil` when unknown (or below the gate).
    public var loudnessLUFS: Double?
    /// The highest true peak in dBTP; `nil` when unknown.
    public var truePeakDBTP: Double?
    /// Loudness range in LU; `nil` when unknown.
    public var loudnessRange: Double?
    /// Clips (`ClipRule`); `nil` when unknown.
    public var clipCount: Int64?
    /// When it went to Recently Deleted, in seconds since 1970; `nil` while it is in the library.
    public var deletedAt: Double?
    /// Why it went to Recently Deleted; `nil` while it is in the library.
    public var deletionReason: DeletionReason?
    /// Its tags (`MemoTag`: lower case), in the order they were added.
    public var tags: [String] = []
    /// Whether it is a favourite (`*`).
    public var isStarred = false

    public init(
        id: Int64, title: String, created: Double, duration: Double, frames: Int64, sampleRate: Int,
        channels: Int, format: String, encoding: String, fileShown: String, size: Int64,
        peakDB: Double, state: State, deletedAt: Double? = nil, loudnessLUFS: Double? = nil,
        truePeakDBTP: Double? = nil, loudnessRange: Double? = nil, clipCount: Int64? = nil,
        deletionReason: DeletionReason? = nil
    ) {
        self.id = id
        self.title = title
        self.created = created
        self.duration = duration
        self.frames = frames
        self.sampleRate = sampleRate
        self.channels = channels
        self.format = format
        self.encoding = encoding
        self.fileShown = fileShown
        self.size = size
        self.peakDB = peakDB
        self.state = state
        self.deletedAt = deletedAt
        self.deletionReason = deletionReason ?? (deletedAt == nil ? nil : .deleted)
        self.loudnessLUFS = loudnessLUFS
        self.truePeakDBTP = truePeakDBTP
        self.loudnessRange = loudnessRange
        self.clipCount = clipCount
    }

    /// The file's name, without its folder: `2026-11-29_14-03-12_a1b2c3.flac`.
    public var fileName: Substring {
        fileShown.split(separator: "/").last ?? ""
    }

    /// Whole days left before it is purged from Recently Deleted at `now` (seconds since 1970);
    /// `nil` for a memo that is not deleted.
    public func daysUntilPurge(now: Double) -> Int? {
        deletedAt.flatMap { RecentlyDeleted.daysUntilPurge(deletedAt: $0, now: now) }
    }

    /// "29 days left", "1 day left", "due": for Recently Deleted.
    public func purgeText(now: Double) -> String {
        RecentlyDeleted.purgeText(deletedAt: deletedAt, now: now)
    }
}
