import Foundation

/// The average and peak of each channel over a whole run, built from successive
/// meter snapshots.
///
/// Each snapshot's average is a mean square in disguise (10^(dB/10)); weighting it
/// by the frames it covered gives the exact mean square of the whole run.
struct MeterSummary {
    private(set) var frames = 0
    private var weightedMeanSquare: [Double]
    private(set) var peak: [Float]

    init(channels: Int) {
        weightedMeanSquare = Array(repeating: 0, count: channels)
        peak = Array(repeating: -160, count: channels)
    }

    /// Adds a snapshot that covered `frames` frames.
    mutating func add(frames count: Int, average: [Float], peak snapshotPeak: [Float]) {
        guard count > 0 else { return }
        frames += count
        for channel in weightedMeanSquare.indices {
            let averageDB = Double(average[channel])
            if averageDB > -160 {
                weightedMeanSquare[channel] += pow(10, averageDB / 10) * Double(count)
            }
            peak[channel] = max(peak[channel], snapshotPeak[channel])
        }
    }

    /// The whole run's RMS level per channel, in dBFS (−160 for silence).
    var average: [Float] {
        weightedMeanSquare.map { sum in
            guard frames > 0, sum > 0 else { return -160 }
            return Float(max(-160, 10 * log10(sum / Double(frames))))
        }
    }
}
