/// Everything that decides how a recording is written: container, encoding, rate, channels, quality.
public struct RecordingSettings: Sendable, Hashable {
    /// Channels accepted by any format; some formats accept fewer (`FileFormat.maximumChannels`).
    public static let channelRange = 1...32
    /// Sample rates accepted by any format; some formats accept fewer (`FileFormat.allowedSampleRates`).
    public static let sampleRateRange = 8000...384_000

    /// What a recording gets when neither its command, nor its source, nor the configuration
    /// says: the one place for the defaults (`record`, the app, `meter`).
    public static let defaultFormat = FileFormat.flac
    public static let defaultSampleRate = 48_000
    public static let defaultChannels = 2
    public static let defaultQuality = Quality.high

    public var format: FileFormat
    public var encoding: Encoding
    public var sampleRate: Int
    public var channels: Int
    public var quality: Quality

    /// - Parameter encoding: `nil` picks the format's default (`FileFormat.defaultEncoding`).
    public init(
        format: FileFormat = defaultFormat, encoding: Encoding? = nil, sampleRate: Int = defaultSampleRate,
        channels: Int = defaultChannels, quality: Quality = defaultQuality
    ) {
        self.format = format
        self.encoding = encoding ?? format.defaultEncoding
        self.sampleRate = sampleRate
        self.channels = channels
        self.quality = quality
    }

    /// The format an output path's extension names (e.g. "a.wav" → `.wav`), or `nil` if it names none.
    public static func inferred(fromPath path: String) -> FileFormat? {
        FileFormat.named(byExtensionOf: path)
    }

    /// The in-memory sample format that feeds this encoding without loss.
    ///
    /// `int16` for 16-bit and companded encodings, `int32` for 24/32-bit PCM and ALAC24,
    /// `float32` for float and the lossy codecs (which encode from float internally).
    public var preferredSampleFormat: SampleFormat {
        switch encoding {
        case .pcm16, .alac16, .ulaw, .alaw, .imaAdpcm: .int16
        case .pcm24, .pcm32, .alac24: .int32
        case .float, .vorbis, .opus, .mp3, .aac: .float32
        }
    }

    /// How a file in this format survives the recording process being killed.
    public var crashSafety: CrashSafety {
        switch format {
        // libsndfile writes CAF's ALAC packet table only at close: unreadable after kill -9.
        case .caf where encoding == .alac16 || encoding == .alac24: .intermediate
        case .wav, .aiff, .caf: .headerUpdatedOnWrite
        case .flac, .opus: .streaming
        // MP4's index (moov) is written last: see MP4AudioWriter.
        case .ogg, .mp3, .m4a: .intermediate
        }
    }

    /// The largest file these settings may write when its container's sizes are 32-bit:
    /// AIFF, and WAV coded as IMA ADPCM (which libsndfile's RF64 writer does not take).
    /// 4 GiB less `sizeLimitReserve`, kept for the header, tags, and the markers and titles
    /// written into the file later (in place, past the audio). `nil` where the file may grow
    /// as far as the disk allows: any other WAV becomes RF64 as it passes 4 GiB; CAF, W64
    /// intermediates and MP4 have 64-bit sizes; FLAC and Ogg are streams.
    public var fileSizeLimit: Int64? {
        switch (format, encoding) {
        case (.aiff, _), (.wav, .imaAdpcm): Self.thirtyTwoBitFileSize - Self.sizeLimitReserve
        default: nil
        }
    }

    /// What a 32-bit container's sizes allow (its size field counts all but the first 8 bytes).
    static let thirtyTwoBitFileSize = Int64(UInt32.max) + 8
    /// Room kept below a 32-bit container's limit for everything but the audio: 1 MiB.
    public static let sizeLimitReserve: Int64 = 1 << 20

    /// The most frames a file with these settings can hold (its audio within
    /// `fileSizeLimit`), or `nil` when there is no such limit. 48 kHz stereo 16-bit AIFF:
    /// 1 073 479 681 frames, 6:12:44.
    public var maximumFrames: Int64? {
        guard let limit = fileSizeLimit else { return nil }
        let channels = Int64(max(1, self.channels))
        switch encoding {
        case .imaAdpcm:
            // libsndfile's IMA ADPCM blocks in WAV (wavlike_srate2blocksize, wav_write_fmt_chunk).
            let product = sampleRate * Int(channels)
            let blockBytes: Int64 = product < 12000 ? 256 : product < 23000 ? 512 : product < 44000 ? 1024 : 2048
            let framesPerBlock = 2 * (blockBytes - 4 * channels) / channels + 1
            return limit / blockBytes * framesPerBlock
        default:
            guard let width = encoding.bytesPerSample else { return nil }
            return limit / (Int64(width) * channels)
        }
    }

    /// Refuses bad combinations before anything is created.
    ///
    /// - Parameter path: when given, its extension must not name a different format.
    /// - Throws: `SettingsError` naming what is wrong and what would work.
    public func validate(path: String? = nil) throws(SettingsError) {
        if let problem = problem(path: path) {
            throw SettingsError(message: problem.what + (problem.remedy.map { "; " + $0 } ?? ""))
        }
    }

    /// What these settings cannot do, without the flags that would fix it (for a caller whose
    /// flags are others, such as `export`), or `nil` when they are fine.
    public func limitation() -> String? {
        problem(path: nil)?.what
    }

    /// What is wrong, and the flags that would fix it on `record`'s command line.
    private typealias Problem = (what: String, remedy: String?)

    /// The first thing wrong with these settings, in words a person reads.
    private func problem(path: String?) -> Problem? {
        let channelRange = Self.channelRange
        let rateRange = Self.sampleRateRange
        if !channelRange.contains(channels) {
            return ("\(channels) channels: use \(channelRange.lowerBound) to \(channelRange.upperBound)", nil)
        }
        if !rateRange.contains(sampleRate) {
            return ("rate \(sampleRate) Hz is out of range: use \(rateRange.lowerBound) to \(rateRange.upperBound) Hz", nil)
        }
        if !format.encodings.contains(encoding) {
            return encodingProblem()
        }
        if let problem = channelProblem() {
            return problem
        }
        if let problem = sampleRateProblem() {
            return problem
        }
        if let path, let named = FileFormat.named(byExtensionOf: path), named != format,
            let pathExtension = FileFormat.fileExtension(of: path)
        {
            let wanted = format.fileExtensions.first ?? format.rawValue
            return ("the file name ends in .\(pathExtension) but the format is \(format.rawValue)",
                "name it .\(wanted) or use --format \(named.rawValue)")
        }
        return nil
    }

    private func encodingProblem() -> Problem {
        let homes = FileFormat.allCases.filter { $0.encodings.contains(encoding) }
        if homes.count == 1, let home = homes.first {
            return ("\(encoding.displayName) is available in \(home.displayName) only, not \(format.displayName)",
                "use --format \(home.rawValue)")
        }
        let offered = Self.list(format.encodings.map(\.rawValue), conjunction: "or")
        var remedy = "use --encoding \(format.defaultEncoding.rawValue)"
        if let home = homes.first {
            remedy += " or --format \(home.rawValue)"
        }
        return ("\(format.displayName) records \(offered), not \(encoding.rawValue)", remedy)
    }

    private func channelProblem() -> Problem? {
        if let limit = encoding.maximumChannels, channels > limit {
            return ("\(encoding.displayName) records at most \(limit) channels, not \(channels)",
                "use --channels \(limit) or --encoding pcm16")
        }
        let limit = format.maximumChannels
        guard channels > limit else { return nil }
        let alternative: FileFormat = channels <= FileFormat.flac.maximumChannels ? .flac : .wav
        return ("\(format.displayName) records at most \(limit) channels, not \(channels)",
            "use --channels \(limit) or --format \(alternative.rawValue)")
    }

    private func sampleRateProblem() -> Problem? {
        if let allowed = format.allowedSampleRates, !allowed.contains(sampleRate) {
            let suggestion = allowed.min { abs($0 - sampleRate) < abs($1 - sampleRate) } ?? 48000
            let rates = Self.list(allowed.map(String.init), conjunction: "or")
            return ("\(format.displayName) records at \(rates) Hz, not \(sampleRate) Hz",
                "use --rate \(suggestion) or --format flac")
        }
        if sampleRate > format.maximumSampleRate {
            return ("\(format.displayName) records at up to \(format.maximumSampleRate) Hz, not \(sampleRate) Hz",
                "use --rate \(format.maximumSampleRate) or --format flac")
        }
        return nil
    }

    /// "a, b or c".
    private static func list(_ items: [String], conjunction: String) -> String {
        guard let last = items.last else { return "" }
        let head = items.dropLast()
        return head.isEmpty ? last : head.joined(separator: ", ") + " \(conjunction) " + last
    }
}
