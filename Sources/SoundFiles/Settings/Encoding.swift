/// How samples are coded inside a file, named as on the command line (`--encoding`).
public enum Encoding: String, CaseIterable, Sendable {
    case pcm16, pcm24, pcm32, float, alac16, alac24, ulaw, alaw
    case imaAdpcm = "ima-adpcm"
    case vorbis, opus, mp3, aac

    /// The name a person reads, e.g. "ALAC" or "24-bit PCM".
    public var displayName: String {
        switch self {
        case .pcm16: "16-bit PCM"
        case .pcm24: "24-bit PCM"
        case .pcm32: "32-bit PCM"
        case .float: "32-bit float"
        case .alac16, .alac24: "ALAC"
        case .ulaw: "μ-law"
        case .alaw: "A-law"
        case .imaAdpcm: "IMA ADPCM"
        case .vorbis: "Vorbis"
        case .opus: "Opus"
        case .mp3: "MP3"
        case .aac: "AAC"
        }
    }

    /// Whether decoding gives back exactly the samples that were encoded (at the encoding's depth).
    public var isLossless: Bool {
        switch self {
        case .pcm16, .pcm24, .pcm32, .float, .alac16, .alac24: true
        case .ulaw, .alaw, .imaAdpcm, .vorbis, .opus, .mp3, .aac: false
        }
    }

    /// Bytes per sample of a fixed-width encoding (PCM, float, µ-law, A-law); `nil` for the
    /// block and variable-rate codecs.
    var bytesPerSample: Int? {
        switch self {
        case .pcm16: 2
        case .pcm24: 3
        case .pcm32, .float: 4
        case .ulaw, .alaw: 1
        default: nil
        }
    }

    /// The most channels this encoding holds whatever the container (IMA ADPCM: 2).
    var maximumChannels: Int? {
        self == .imaAdpcm ? 2 : nil
    }
}

/// How hard a codec works: VBR quality for Vorbis, Opus and MP3, the bit rate for AAC
/// (`MP4AudioWriter.bitRatePerChannel`), compression effort for FLAC.
public enum Quality: String, CaseIterable, Sendable {
    case min, low, medium, high, max

    /// The 0…1 value given to libsndfile (SFC_SET_VBR_ENCODING_QUALITY: 1 is best;
    /// SFC_SET_COMPRESSION_LEVEL: 1 is smallest, which for lossless FLAC only costs CPU).
    var unitValue: Double {
        switch self {
        case .min: 0.0
        case .low: 0.25
        case .medium: 0.5
        case .high: 0.75
        case .max: 1.0
        }
    }
}
