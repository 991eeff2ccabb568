/// A container format the recorder can write, named as on the command line (`--format`).
public enum FileFormat: String, CaseIterable, Sendable {
    case wav, flac, ogg, opus, mp3, caf, aiff, m4a

    /// The name a person reads, e.g. "Ogg Opus".
    public var displayName: String {
        switch self {
        case .wav: "WAV"
        case .flac: "FLAC"
        case .ogg: "Ogg Vorbis"
        case .opus: "Ogg Opus"
        case .mp3: "MP3"
        case .caf: "CAF"
        case .aiff: "AIFF"
        case .m4a: "M4A (AAC)"
        }
    }

    /// Other tools' names for a format VoiceMemo writes (lower case), as extensions or
    /// format names: what a person who types them means.
    public static let otherNames: [String: FileFormat] = [
        "mp4": .m4a, "aac": .m4a, "m4b": .m4a, "aif": .aiff, "aifc": .aiff, "oga": .ogg, "vorbis": .ogg,
        "wave": .wav, "mpeg": .mp3, "alac": .caf,
    ]

    /// File name extensions (lower case, no dot) that name this format; the first is preferred.
    public var fileExtensions: [String] {
        switch self {
        case .wav: ["wav"]
        case .flac: ["flac"]
        case .ogg: ["ogg", "oga"]
        case .opus: ["opus"]
        case .mp3: ["mp3"]
        case .caf: ["caf"]
        case .aiff: ["aiff", "aif"]
        case .m4a: ["m4a"]
        }
    }

    /// The encodings this format can hold, the default first.
    public var encodings: [Encoding] {
        switch self {
        case .wav: [.pcm16, .pcm24, .pcm32, .float, .ulaw, .alaw, .imaAdpcm]
        case .flac: [.pcm16, .pcm24]
        case .ogg: [.vorbis]
        case .opus: [.opus]
        case .mp3: [.mp3]
        case .caf: [.pcm16, .pcm24, .pcm32, .float, .alac16, .alac24, .ulaw, .alaw]
        case .aiff: [.pcm16, .pcm24, .pcm32, .float, .ulaw, .alaw]
        case .m4a: [.aac]
        }
    }

    /// The encoding used when none is given.
    public var defaultEncoding: Encoding {
        encodings.first ?? .pcm16
    }

    /// The most channels libsndfile 1.2.0 writes in this format (measured by trying).
    public var maximumChannels: Int {
        switch self {
        case .flac: 8
        // FFmpeg 5.1's AAC encoder takes mono to 5.1 and 7.1 layouts; memos need no more than stereo.
        case .mp3, .m4a: 2
        default: RecordingSettings.channelRange.upperBound
        }
    }

    /// The sample rates this format accepts, when it accepts fewer than the general range.
    ///
    /// `nil` means every rate in `RecordingSettings.sampleRateRange` except where
    /// `maximumSampleRate` says less.
    public var allowedSampleRates: [Int]? {
        switch self {
        // Opus codes at 48 kHz internally; libsndfile's sf_format_check accepts 44.1 kHz but sf_open fails.
        case .opus: [8000, 12000, 16000, 24000, 48000]
        // MPEG-1/2/2.5 Layer III sample rates.
        case .mp3: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]
        // The MPEG-4 AAC sampling frequencies (7350 Hz aside).
        case .m4a: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000]
        default: nil
        }
    }

    /// The highest sample rate this format accepts (libsndfile's Vorbis encoder fails at 384 kHz).
    public var maximumSampleRate: Int {
        switch self {
        case .ogg: 192_000
        default: allowedSampleRates?.max() ?? RecordingSettings.sampleRateRange.upperBound
        }
    }

    /// The format a file name's extension names, if any (case-insensitive).
    ///
    /// Runs for every file in the library folder each time a library opens, so it looks at the
    /// bytes after the last dot and compares them with a table, without building strings.
    static func named(byExtensionOf path: String) -> FileFormat? {
        let utf8 = path.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let suffix = utf8[utf8.index(after: dot)...]
        guard !suffix.contains(UInt8(ascii: "/")), dot != utf8.startIndex,
            utf8[utf8.index(before: dot)] != UInt8(ascii: "/"), (1...4).contains(suffix.count)
        else { return nil }
        for (name, format) in extensionTable where name.utf8.count == suffix.count {
            if zip(name.utf8, suffix).allSatisfy({ $0 == asciiLowercased($1) }) {
                return format
            }
        }
        return nil
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// Every extension and the format it names.
    private static let extensionTable: [(String, FileFormat)] = allCases.flatMap { format in
        format.fileExtensions.map { ($0, format) }
    }

    /// The lower-cased extension of the last path component, without the dot.
    static func fileExtension(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let pathExtension = name[name.index(after: dot)...]
        return pathExtension.isEmpty ? nil : pathExtension.lowercased()
    }
}
