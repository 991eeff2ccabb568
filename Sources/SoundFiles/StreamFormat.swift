/// How one interleaved PCM sample is stored in memory.
///
/// The three shapes that ALSA capture, libsndfile and the level meter all speak:
/// `int32` holds 24-bit audio left-justified in 32 bits (ALSA `S32_LE`, libsndfile `sf_readf_int`).
public enum SampleFormat: String, Sendable, CaseIterable {
    case int16
    case int32
    case float32

    /// Bytes per sample (one channel of one frame).
    public var bytesPerSample: Int {
        switch self {
        case .int16: 2
        case .int32, .float32: 4
        }
    }
}

/// The shape of an interleaved PCM stream: rate, channels and sample format.
public struct StreamFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int
    public var sampleFormat: SampleFormat

    public init(sampleRate: Int, channels: Int, sampleFormat: SampleFormat) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
    }

    /// Bytes per frame (one sample of every channel).
    public var bytesPerFrame: Int { channels * sampleFormat.bytesPerSample }

    public var description: String {
        "\(sampleRate) Hz, \(channels) ch, \(sampleFormat.rawValue)"
    }
}
