import Metering
import SoundFiles

/// The measurements of a whole sound file: sample peak, true peak, loudness, loudness range,
/// full-scale samples.
///
/// Used by `voicememo analyze` and by the library, which stores the figures with each memo
/// (`Memo.loudnessLUFS` and the rest) when it recovers or adopts a file, or finishes a recording
/// whose recorder did not measure it. The meters are the recorder's (`ProgrammeMeter`).
public struct FileAnalysis: Sendable {
    /// The file's rate, channels and coding.
    public let info: SoundFileInfo
    /// Frames actually decoded (the header may be wrong for damaged or streamed files).
    public private(set) var frames = 0
    /// The meters, having consumed every decoded frame.
    public private(set) var meters: ProgrammeMeter

    /// True peak, sample peak and full-scale samples.
    public var truePeak: TruePeakMeter { meters.truePeak }
    /// `nil` when the rate is outside `LoudnessMeter.supportedSampleRates`.
    public var loudness: LoudnessMeter? { meters.loudness }

    /// Frames read from the file per call.
    static let chunkFrames = 8_192

    /// Reads the whole file at `path` and measures it.
    ///
    /// Samples are read in the file's own integer width where it has one, so a 16- or 24-bit
    /// sample at full scale counts as a clip exactly as the live meter counts it.
    ///
    /// - Throws: `SoundFileError` naming the file (missing, not audio, damaged, unreadable).
    public static func measure(path: String) throws(SoundFileError) -> FileAnalysis {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        return try measure(reader)
    }

    /// Reads what is left of `reader` and measures it; the caller closes the reader.
    ///
    /// - Throws: `SoundFileError` when a read fails.
    static func measure(_ reader: SoundFileReader) throws(SoundFileError) -> FileAnalysis {
        var analysis = FileAnalysis(info: reader.info)
        switch Self.readFormat(for: reader.info.encoding) {
        case .int16:
            try analysis.read(reader, as: .int16, zero: Int16(0)) { meters, samples in
                meters.consume(samples)
            }
        case .int32:
            try analysis.read(reader, as: .int32, zero: Int32(0)) { meters, samples in
                meters.consume(samples)
            }
        case .float32:
            try analysis.read(reader, as: .float32, zero: Float(0)) { meters, samples in
                meters.consume(samples)
            }
        }
        return analysis
    }

    private init(info: SoundFileInfo) {
        self.info = info
        let channels = min(max(info.channels, 1), LevelMeter.maximumChannelCount)
        meters = ProgrammeMeter(channels: channels, sampleRate: max(info.sampleRate, 1))
    }

    /// Length in seconds of what was decoded.
    public var duration: Double {
        info.sampleRate > 0 ? Double(frames) / Double(info.sampleRate) : 0
    }

    /// The figures a memo keeps, with `frames` as decoded.
    public var statistics: ProgrammeStatistics {
        var statistics = meters.statistics
        statistics.frames = Int64(frames)
        return statistics
    }

    /// The sample width to decode `encoding` at: integers for integer PCM, floats otherwise.
    static func readFormat(for encoding: Encoding?) -> SampleFormat {
        switch encoding {
        case .pcm16, .alac16: .int16
        case .pcm24, .pcm32, .alac24: .int32
        default: .float32
        }
    }

    private mutating func read<Sample>(
        _ reader: SoundFileReader, as format: SampleFormat, zero: Sample,
        feed: (inout ProgrammeMeter, UnsafeBufferPointer<Sample>) -> Void
    ) throws(SoundFileError) {
        let channels = info.channels
        var buffer = [Sample](repeating: zero, count: Self.chunkFrames * channels)
        while true {
            let result = buffer.withUnsafeMutableBytes { bytes -> Result<Int, SoundFileError> in
                guard let base = bytes.baseAddress else { return .success(0) }
                return Result { () throws(SoundFileError) -> Int in
                    try reader.read(into: base, frames: Self.chunkFrames, as: format)
                }
            }
            let count = try result.get()
            guard count > 0 else { break }
            frames += count
            buffer.withUnsafeBufferPointer { samples in
                feed(&meters, UnsafeBufferPointer(rebasing: samples[0..<(count * channels)]))
            }
        }
    }
}
