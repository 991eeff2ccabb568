import CSndFile

/// Translation between our format and encoding names and libsndfile's SF_FORMAT_* codes.
enum FormatCodes {
    /// The SF_INFO.format value for a format and encoding.
    ///
    /// A WAV is written as RF64 whenever libsndfile's RF64 writer takes its encoding (all
    /// but IMA ADPCM): with `SFC_RF64_AUTO_DOWNGRADE` (`SoundFileWriter`) a file that ends
    /// under 4 GiB is a RIFF/WAVE file, one that grows past it switches to RF64 (EBU Tech
    /// 3306) as it crosses, instead of wrapping its 32-bit sizes.
    static func code(format: FileFormat, encoding: Encoding) -> Int32 {
        if format == .wav, writesRF64(encoding) {
            return Int32(SF_FORMAT_RF64 | subtype(encoding))
        }
        return Int32(major(format) | subtype(encoding))
    }

    /// Whether libsndfile 1.2.0's RF64 writer takes `encoding` (`rf64_open`: PCM, float,
    /// µ-law, A-law; not IMA ADPCM, whose WAVs keep RIFF's 4 GiB limit).
    static func writesRF64(_ encoding: Encoding) -> Bool {
        switch encoding {
        case .pcm16, .pcm24, .pcm32, .float, .ulaw, .alaw: true
        default: false
        }
    }

    /// Whether a code is libsndfile's RF64 container (a WAV that may grow past 4 GiB).
    static func isRF64(_ code: Int32) -> Bool {
        Int(code) & SF_FORMAT_TYPEMASK == SF_FORMAT_RF64
    }

    /// The code of the W64 intermediate used by `.intermediate` recordings: PCM of the same depth
    /// for ALAC (so the round trip stays bit-exact), float for the lossy codecs.
    static func intermediateCode(for encoding: Encoding) -> Int32 {
        switch encoding {
        case .alac16: Int32(SF_FORMAT_W64 | SF_FORMAT_PCM_16)
        case .alac24: Int32(SF_FORMAT_W64 | SF_FORMAT_PCM_24)
        default: Int32(SF_FORMAT_W64 | SF_FORMAT_FLOAT)
        }
    }

    private static func major(_ format: FileFormat) -> Int {
        switch format {
        case .wav: SF_FORMAT_WAV
        case .flac: SF_FORMAT_FLAC
        case .ogg, .opus: SF_FORMAT_OGG
        case .mp3: SF_FORMAT_MPEG
        case .caf: SF_FORMAT_CAF
        case .aiff: SF_FORMAT_AIFF
        // Not libsndfile's: written and read through FFmpeg (MP4AudioWriter, MP4AudioReader).
        case .m4a: noCode
        }
    }

    private static func subtype(_ encoding: Encoding) -> Int {
        switch encoding {
        case .pcm16: SF_FORMAT_PCM_16
        case .pcm24: SF_FORMAT_PCM_24
        case .pcm32: SF_FORMAT_PCM_32
        case .float: SF_FORMAT_FLOAT
        case .alac16: SF_FORMAT_ALAC_16
        case .alac24: SF_FORMAT_ALAC_24
        case .ulaw: SF_FORMAT_ULAW
        case .alaw: SF_FORMAT_ALAW
        case .imaAdpcm: SF_FORMAT_IMA_ADPCM
        case .vorbis: SF_FORMAT_VORBIS
        case .opus: SF_FORMAT_OPUS
        case .mp3: SF_FORMAT_MPEG_LAYER_III
        case .aac: noCode
        }
    }

    /// Matches no libsndfile code (those are never negative).
    private static let noCode = -1

    /// Our names for a code read from a file; `nil` where we have no name (e.g. W64, ADPCM in AIFF).
    static func names(of code: Int32) -> (format: FileFormat?, encoding: Encoding?) {
        let majorCode = Int(code) & SF_FORMAT_TYPEMASK
        let subtypeCode = Int(code) & SF_FORMAT_SUBMASK
        let encoding = Encoding.allCases.first { subtype($0) == subtypeCode }
        let format: FileFormat? =
            switch majorCode {
            // A WAV written through the RF64 writer reads back as RF64 past 4 GiB and as
            // WAVEX (WAVE_FORMAT_EXTENSIBLE) below it.
            case SF_FORMAT_WAV, SF_FORMAT_WAVEX, SF_FORMAT_RF64: .wav
            case SF_FORMAT_FLAC: .flac
            case SF_FORMAT_OGG: encoding == .opus ? .opus : .ogg
            case SF_FORMAT_MPEG: .mp3
            case SF_FORMAT_CAF: .caf
            case SF_FORMAT_AIFF: .aiff
            default: nil
            }
        return (format, encoding)
    }
}
