/// What a sound file holds: length, rate, channels and how it is coded.
public struct SoundFileInfo: Sendable, Hashable {
    /// Frames in the file (counted by decoding where the header does not know).
    public var frames: Int64
    public var sampleRate: Int
    public var channels: Int
    /// Our name for the container, `nil` for one we do not record (e.g. W64).
    public var format: FileFormat?
    /// Our name for the encoding, `nil` for one we do not record (e.g. 8-bit PCM).
    public var encoding: Encoding?
    /// libsndfile's description, e.g. "WAV (Microsoft), Signed 16 bit PCM".
    public var formatDescription: String

    public init(
        frames: Int64, sampleRate: Int, channels: Int, format: FileFormat?, encoding: Encoding?,
        formatDescription: String
    ) {
        self.frames = frames
        self.sampleRate = sampleRate
        self.channels = channels
        self.format = format
        self.encoding = encoding
        self.formatDescription = formatDescription
    }

    /// Length in seconds.
    public var duration: Double {
        sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0
    }
}
