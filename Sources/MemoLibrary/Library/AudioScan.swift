import Metering
import SoundFiles

/// What decoding a whole audio file finds: how many frames it really holds, its highest peak,
/// and its loudness statistics.
///
/// For finished recordings and for the memos whose recorder did not say: recovered after a
/// crash, adopted from the folder, re-read after their file changed. Decoding costs time in
/// proportion to the audio, so it is done only for those files, never for every file at every
/// start-up.
struct AudioScan {
    /// Frames decoded (the header's count may be stale or unknown after a crash).
    var frames: Int64
    /// The highest sample peak over all channels, in dBFS (−160 for silence).
    var peakDB: Double
    /// True peak, loudness, loudness range and clips.
    var statistics: AudioStatistics

    /// Decodes the file at `path` and measures it with `FileAnalysis`; `nil` when it cannot be
    /// read to the end or has a channel count the meters do not take.
    init?(path: String) {
        guard let reader = try? SoundFileReader(path: path) else { return nil }
        defer { reader.close() }
        guard (1...LevelMeter.maximumChannelCount).contains(reader.info.channels),
            let analysis = try? FileAnalysis.measure(reader)
        else { return nil }
        frames = Int64(analysis.frames)
        peakDB = max(Double(analysis.truePeak.samplePeakLevel), Double(Decibels.floor))
        statistics = AudioStatistics(analysis)
    }
}

/// The loudness figures stored with a memo (index schema version 2).
struct AudioStatistics {
    /// Integrated loudness in LUFS; `nil` below the gate or at an unsupported rate.
    var loudnessLUFS: Double?
    /// True peak in dBTP (`Decibels.floor` for silence).
    var truePeakDBTP: Double?
    /// Loudness range in LU; `nil` when the audio is too short or too quiet for it.
    var loudnessRange: Double?
    /// Samples at full scale.
    var clipCount: Int64

    init(_ analysis: FileAnalysis) {
        loudnessLUFS = Self.finite(analysis.loudness?.integratedLoudness)
        truePeakDBTP = Self.finite(Double(analysis.truePeak.truePeakLevel))
        loudnessRange = Self.finite(analysis.loudness?.loudnessRange)
        clipCount = Int64(analysis.truePeak.fullScaleSampleCount)
    }

    /// Stores the figures in `memo`.
    func apply(to memo: inout Memo) {
        memo.loudnessLUFS = loudnessLUFS
        memo.truePeakDBTP = truePeakDBTP
        memo.loudnessRange = loudnessRange
        memo.clipCount = clipCount
    }

    private static func finite(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return value
    }
}
