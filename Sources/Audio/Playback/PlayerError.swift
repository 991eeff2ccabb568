/// Why a player refused a file or a device, or why playback stopped early.
///
/// `message` is the sentence a person reads: it names the file or the device and
/// the cause (libsndfile's or ALSA's own words where they have them).
public struct PlayerError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The file is missing, unreadable, empty, not audio, damaged or in an encoding
        /// libsndfile cannot decode; nothing was opened.
        case file
        /// Decoding failed, or the file ended before the length its header promised
        /// (truncated), while playing.
        case decode
        /// The playback device could not be opened, refused the file's format, or
        /// failed while playing (unplugged, I/O error).
        case device
        /// A seek to a time outside the file.
        case seek
    }

    public var kind: Kind
    public var message: String
    /// The typed failure underneath (ALSA's code, libsndfile's kind): decide on this, never on
    /// `message`.
    public var cause: ErrorCause?

    public init(_ kind: Kind, _ message: String, cause: ErrorCause? = nil) {
        self.kind = kind
        self.message = message
        self.cause = cause
    }

    public var description: String { message }
}

/// What a player tells its owner, delivered on the queue the owner chose.
public struct PlayerEvents: Sendable {
    /// Playback ended by itself: the whole file was played and drained (`true`), or an
    /// error ended it (`false`, right after `decodeErrorDidOccur`). `stop()` sends nothing,
    /// like AVAudioPlayer.
    public var didFinishPlaying: (@Sendable (_ successfully: Bool) -> Void)?
    /// Decoding or the device failed mid-play; the error's kind says which.
    public var decodeErrorDidOccur: (@Sendable (PlayerError) -> Void)?

    public init(
        didFinishPlaying: (@Sendable (_ successfully: Bool) -> Void)? = nil,
        decodeErrorDidOccur: (@Sendable (PlayerError) -> Void)? = nil
    ) {
        self.didFinishPlaying = didFinishPlaying
        self.decodeErrorDidOccur = decodeErrorDidOccur
    }
}
