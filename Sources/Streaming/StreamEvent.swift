import SoundFiles

/// What a `StreamPlayer` (or a stream source) reports as it goes, in order.
public enum StreamEvent: Sendable, Equatable {
    /// Connected (the server's reply is in); opening its container and decoding the first
    /// `seconds` of audio before playback starts.
    case buffering(seconds: Double)
    /// Playback started (or restarted after a reconnect): what the stream is.
    case playing(StreamDescription)
    /// The ICY `StreamTitle` changed.
    case title(String)
    /// Still buffering 2 s after connecting, and the bytes arrive slower than the stream needs
    /// (or its need is not known yet): how many came from `server` in how long. Repeated every
    /// 5 s while it lasts; the stall rule (`--timeout`) counts only time without any byte.
    case slow(StreamArrival, server: String)
    /// The live stream dropped (`cause`); reconnect `attempt` of `limit` follows after `delay` s.
    case reconnecting(attempt: Int, limit: Int, delay: Double, cause: StreamError)
    /// The stream ended (a file with a length, played to its end).
    case finished
    /// The stream could not be played, or stopped on an error.
    case failed(StreamError)
}

/// What an open stream holds.
public struct StreamDescription: Sendable, Equatable {
    /// The decoded format (rate, channels, sample format).
    public var format: StreamFormat
    /// FFmpeg's name of the codec ("mp3", "flac", "aac", "vorbis", "opus", "pcm_s16le").
    public var codec: String
    /// The server's `icy-name`, if it sent one.
    public var name: String?
    /// Whether it is a live stream (no length): it plays until stopped, and reconnects.
    public var isLive: Bool
    /// Its length in seconds, when known.
    public var duration: Double?

    public init(format: StreamFormat, codec: String, name: String?, isLive: Bool, duration: Double?) {
        self.format = format
        self.codec = codec
        self.name = name
        self.isLive = isLive
        self.duration = duration
    }
}
