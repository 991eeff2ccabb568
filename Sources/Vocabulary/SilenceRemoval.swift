/// Which frames of a memo "remove silences" keeps: every pause longer than `keptPause` is cut
/// down to `keptPause` (half of it kept at each side, so words keep their breath and nothing
/// starts abruptly); sound is never cut.
///
/// A 10 ms block is silent when its RMS over all channels is below `threshold` dBFS. Unlike
/// playback's skip silence (which follows a noise floor as it plays, and can be wrong for a
/// moment at no cost) this is destructive, so the rule is a fixed level a person chose.
public struct SilenceRemoval: Sendable, Hashable {
    /// dBFS below which a 10 ms block is silence.
    public var threshold: Double
    /// Seconds of each pause that are kept.
    public var keptPause: Double

    public static let defaultThreshold = -50.0
    public static let defaultKeptPause = 0.5
    /// The thresholds a person may choose.
    public static let thresholdRange = -100.0 ... -10.0

    public init(threshold: Double = defaultThreshold, keptPause: Double = defaultKeptPause) {
        self.threshold = threshold
        self.keptPause = keptPause
    }

    /// The ranges of `range` to keep, given which blocks of `blockFrames` frames (from frame 0
    /// of the file) are silent. Pure.
    public func keptRanges(silentBlocks: [Bool], blockFrames: Int64, within range: Range<Int64>, sampleRate: Int) -> [Range<Int64>] {
        let keep = max(0, Int64((keptPause * Double(sampleRate)).rounded()))
        var kept: [Range<Int64>] = []
        var start = range.lowerBound
        var block = Int(range.lowerBound / max(1, blockFrames))
        func add(_ piece: Range<Int64>) {
            guard !piece.isEmpty else { return }
            if let last = kept.last, last.upperBound == piece.lowerBound {
                kept[kept.count - 1] = last.lowerBound..<piece.upperBound
            } else {
                kept.append(piece)
            }
        }
        while block < silentBlocks.count {
            guard silentBlocks[block] else { block += 1; continue }
            var end = block
            while end < silentBlocks.count, silentBlocks[end] { end += 1 }
            let pause = max(range.lowerBound, Int64(block) * blockFrames)..<min(range.upperBound, Int64(end) * blockFrames)
            block = end
            guard pause.upperBound - pause.lowerBound > keep, pause.lowerBound < range.upperBound else { continue }
            let head = keep / 2
            add(start..<(pause.lowerBound + head))
            start = pause.upperBound - (keep - head)
        }
        add(start..<range.upperBound)
        return kept.filter { $0.lowerBound < range.upperBound }
    }
}
