import Foundation
import Vocabulary
import SoundFiles

/// One memo as the library knows it: a row of the index, describing a file on disk.
///
/// A value type with no I/O, so that the app's pure `Interface` module can show it.
/// `title` is stored exactly as given (any Unicode, control characters included);
/// whoever prints it must make it safe for the terminal.
public struct Memo: Sendable, Hashable, Identifiable {
    /// Where a memo is in its life.
    public enum State: String, Sendable, Hashable, CaseIterable {
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
    public var title: String
    public var created: Date
    /// Seconds of audio (frames ÷ sample rate).
    public var duration: Double
    public var frames: Int64
    public var sampleRate: Int
    public var channels: Int
    public var format: FileFormat
    public var encoding: Encoding
    /// Absolute path of the audio file.
    public var path: String
    /// Bytes on disk.
    public var size: Int64
    /// The highest sample peak in dBFS (−160 for silence or unknown).
    public var peakDB: Double
    public var state: State
    /// Integrated loudness (ITU-R BS.1770, gated) in LUFS; `nil` when unknown, when the audio
    /// stays below the −70 LUFS gate, or at a rate the loudness meter does not take.
    public var loudnessLUFS: Double?
    /// The highest true (inter-sample) peak over all channels in dBTP; `nil` when unknown.
    public var truePeakDBTP: Double?
    /// Loudness range (EBU Tech 3342) in LU; `nil` when unknown or shorter than it needs.
    public var loudnessRange: Double?
    /// Clips (`ClipRule`: runs of three full-scale samples); `nil` when unknown.
    public var clipCount: Int64?
    /// When it went to Recently Deleted; `nil` while it is in the library.
    public var deletedAt: Date?
    /// Why it went to Recently Deleted (`.deleted` for a row deleted before reasons were kept);
    /// `nil` while it is in the library.
    public var deletionReason: DeletionReason?
    /// Its tags (`MemoTag`: lower case, no duplicates), in the order they were added.
    public var tags: [String] = []
    /// Whether it is a favourite (starred).
    public var isStarred = false
    /// A meeting's channels: which are the microphone's and which the desktop's (recorded from
    /// a joined input); `nil` for any other memo, and for one recorded before roles were kept.
    public var channelRoles: ChannelRoles?

    public init(
        id: Int64, title: String, created: Date, duration: Double, frames: Int64, sampleRate: Int,
        channels: Int, format: FileFormat, encoding: Encoding, path: String, size: Int64,
        peakDB: Double, state: State, deletedAt: Date? = nil, loudnessLUFS: Double? = nil,
        truePeakDBTP: Double? = nil, loudnessRange: Double? = nil, clipCount: Int64? = nil
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
        self.path = path
        self.size = size
        self.peakDB = peakDB
        self.state = state
        self.deletedAt = deletedAt
        self.loudnessLUFS = loudnessLUFS
        self.truePeakDBTP = truePeakDBTP
        self.loudnessRange = loudnessRange
        self.clipCount = clipCount
    }
}

extension Memo {
    /// Whole days left before a memo in Recently Deleted is purged at `now`, in seconds since
    /// 1970 (`RecentlyDeleted.daysUntilPurge`); `nil` for a memo that is not deleted.
    public func daysUntilPurge(now: Double) -> Int? {
        deletedAt.flatMap { RecentlyDeleted.daysUntilPurge(deletedAt: $0.timeIntervalSince1970, now: now) }
    }

    /// "29 days left", "1 day left", "due": for Recently Deleted lists.
    public func purgeText(now: Double) -> String {
        RecentlyDeleted.purgeText(deletedAt: deletedAt?.timeIntervalSince1970, now: now)
    }
}
