import Metering
import SoundFiles

/// What decoding a whole audio file finds: how many frames it really holds, its highest peak,
/// and its loudness statistics.
///
/// For the memos whose recorder did not say: recovered after a crash, adopted from the folder,
/// re-read after their file changed, or finished without the recorder's statistics. Decoding
/// costs time in proportion to the audio, so it is done only for those files, never for every
/// file at every start-up.
struct AudioScan {
    /// Frames decoded (the header's count may be stale or unknown after a crash).
    var frames: Int64 { statistics.frames }
    /// The highest sample peak over all channels, in dBFS (−160 for silence).
    var peakDB: Double { max(statistics.samplePeakDB, Double(Decibels.floor)) }
    /// Peaks, loudness, loudness range and clips.
    var statistics: ProgrammeStatistics

    /// Decodes the file at `path` and measures it with `FileAnalysis`; `nil` when it cannot be
    /// read to the end or has a channel count the meters do not take. The library decodes
    /// through `MemoLibrary.scanAudio(path:)`, which counts.
    init?(path: String) {
        guard let reader = try? SoundFileReader(path: path) else { return nil }
        defer { reader.close() }
        guard (1...LevelMeter.maximumChannelCount).contains(reader.info.channels),
            let analysis = try? FileAnalysis.measure(reader)
        else { return nil }
        statistics = analysis.statistics
    }
}

extension ProgrammeStatistics {
    /// Stores the loudness figures in `memo` (its peak and length are stored apart).
    func apply(to memo: inout Memo) {
        memo.loudnessLUFS = loudnessLUFS
        memo.truePeakDBTP = truePeakDBTP
        memo.loudnessRange = loudnessRange
        memo.clipCount = clipCount
    }
}

extension MemoLibrary {
    /// Decodes and measures the file at `path` (`AudioScan`), counting it in `filesDecoded`.
    func scanAudio(path: String) -> AudioScan? {
        filesDecoded += 1
        return AudioScan(path: path)
    }
}
