import MemoLibrary
import Metering
import SoundFiles

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
    /// `--transcript T` or PATH's `.txt`/`.srt`/`.vtt`/`.md`: the transcript instead of the audio.
    public var transcript: TranscriptFormat?

    public init(
        memo: String, path: String?, labels: String? = nil, format: FileFormat? = nil, force: Bool = false,
        loudness: LoudnessTarget? = nil, enhance: Bool = false, transcript: TranscriptFormat? = nil
    ) {
        self.transcript = transcript
        self.enhance = enhance
        self.memo = memo
        self.path = path
        self.labels = labels
        self.format = format
        self.force = force
        self.loudness = loudness
    }
}
