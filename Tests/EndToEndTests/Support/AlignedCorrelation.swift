import Foundation
import SoundFiles

/// How closely a recording matches the file that was played into it, once aligned.
///
/// Played audio reaches the recording late by an unknown lag, and a stall or gap in the path
/// (a playback underrun, a capture overrun) shifts that lag from there on. So the lag is found
/// per one-second block of the played file, near the previous block's lag, and the normalised
/// cross-correlation is taken over every block at its own lag.
struct AlignedCorrelation: CustomStringConvertible {
    /// Σ played·recorded / √(Σ played² · Σ recorded²) over all blocks at their lags.
    var overall: Double
    /// The same per block; the lowest of them.
    var worstBlock: Double
    /// The lag of each block, in frames (recording index − played index).
    var lags: [Int]

    /// The largest change of lag from one block to the next, in frames: a gap's length.
    var largestLagStep: Int {
        zip(lags, lags.dropFirst()).map { abs($1 - $0) }.max() ?? 0
    }

    var description: String {
        let steps = zip(lags, lags.dropFirst()).filter { $0 != $1 }.count
        return String(format: "NCC %.4f (worst 1 s block %.4f) over %d blocks, first lag %d frames, %d lag change(s), largest %d frames",
            overall, worstBlock, lags.count, lags.first ?? 0, steps, largestLagStep)
    }

    /// Aligns interleaved stereo `recorded` with `played` (both Int16, same rate).
    ///
    /// - Parameters:
    ///   - searchFrames: how far each block's lag may move from the previous one.
    /// - Returns: nil when the recording holds nothing loud enough to align on.
    init?(played: [Int16], recorded: [Int16], sampleRate: Int, searchFrames: Int = 4800) {
        let playedMono = Self.mono(played)
        let recordedMono = Self.mono(recorded)
        guard let playedStart = playedMono.firstIndex(where: { abs($0) > 2000 }),
            let recordedStart = recordedMono.firstIndex(where: { abs($0) > 2000 })
        else { return nil }
        var lag = recordedStart - playedStart
        var totalProduct = 0.0, totalPlayed = 0.0, totalRecorded = 0.0
        var worst = 1.0
        var lags: [Int] = []
        let window = sampleRate / 10
        var blockStart = playedStart
        while blockStart + sampleRate <= playedMono.count {
            lag = Self.bestLag(
                playedMono, recordedMono, at: blockStart, window: window,
                around: lag, within: lags.isEmpty ? 200 : searchFrames)
            guard blockStart + lag >= 0, blockStart + lag + sampleRate <= recordedMono.count else { break }
            var product = 0.0, playedEnergy = 0.0, recordedEnergy = 0.0
            for frame in blockStart..<(blockStart + sampleRate) {
                for channel in 0..<2 {
                    let p = Double(played[frame * 2 + channel])
                    let r = Double(recorded[(frame + lag) * 2 + channel])
                    product += p * r
                    playedEnergy += p * p
                    recordedEnergy += r * r
                }
            }
            let block = product / max(1, (playedEnergy * recordedEnergy).squareRoot())
            worst = min(worst, block)
            totalProduct += product
            totalPlayed += playedEnergy
            totalRecorded += recordedEnergy
            lags.append(lag)
            blockStart += sampleRate
        }
        guard !lags.isEmpty else { return nil }
        overall = totalProduct / max(1, (totalPlayed * totalRecorded).squareRoot())
        worstBlock = worst
        self.lags = lags
    }

    private static func mono(_ samples: [Int16]) -> [Float] {
        stride(from: 0, to: samples.count - 1, by: 2).map { (Float(samples[$0]) + Float(samples[$0 + 1])) / 2 }
    }

    /// The lag within `around ± within` whose `window` frames from `start` correlate best.
    private static func bestLag(
        _ played: [Float], _ recorded: [Float], at start: Int, window: Int, around: Int, within: Int
    ) -> Int {
        var best = around
        var bestProduct = -Float.greatestFiniteMagnitude
        let end = min(start + window, played.count)
        played.withUnsafeBufferPointer { p in
            recorded.withUnsafeBufferPointer { r in
                for candidate in (around - within)...(around + within) {
                    guard start + candidate >= 0, end + candidate <= r.count else { continue }
                    var product: Float = 0
                    for index in start..<end {
                        product += p[index] * r[index + candidate]
                    }
                    if product > bestProduct {
                        bestProduct = product
                        best = candidate
                    }
                }
            }
        }
        return best
    }
}
