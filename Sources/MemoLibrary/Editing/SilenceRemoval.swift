import Foundation
import Metering
import SoundFiles

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

    /// The threshold as messages show it: `-50`, `-42.5`.
    var thresholdText: String {
        threshold == threshold.rounded() ? String(Int(threshold)) : String(threshold)
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

    /// Reads the file and says which 10 ms blocks are silent (the last, partial block included).
    func silentBlocks(of reader: SoundFileReader) throws(SoundFileError) -> (blocks: [Bool], blockFrames: Int64) {
        let channels = max(1, reader.info.channels)
        let blockFrames = max(1, reader.info.sampleRate / 100)
        let limit = Float(Decibels.toAmplitude(threshold))
        let limitSquared = limit * limit
        var buffer = [Float](repeating: 0, count: blockFrames * channels * 64)
        var blocks: [Bool] = []
        try reader.seek(toFrame: 0)
        while true {
            let result = buffer.withUnsafeMutableBytes { bytes -> Result<Int, SoundFileError> in
                guard let base = bytes.baseAddress else { return .success(0) }
                return Result { () throws(SoundFileError) -> Int in try reader.read(into: base, frames: blockFrames * 64, as: .float32) }
            }
            let count = try result.get()
            guard count > 0 else { break }
            var first = 0
            while first < count {
                let frames = min(blockFrames, count - first)
                var sum: Float = 0
                for index in (first * channels)..<((first + frames) * channels) {
                    sum += buffer[index] * buffer[index]
                }
                blocks.append(sum / Float(frames * channels) < limitSquared)
                first += frames
            }
        }
        return (blocks, Int64(blockFrames))
    }
}

extension MemoLibrary {
    /// Makes a new memo of memo `id` (the part `range` of it, all when `nil`) without its long
    /// pauses (see `SilenceRemoval`); the original goes to Recently Deleted like a trim's.
    ///
    /// - Throws: `.invalidEdit` when there is no pause to remove, or nothing but silence; as `trim`.
    public func removeSilences(
        id: Int64, _ removal: SilenceRemoval, within range: Range<Int64>? = nil, at date: Date,
        progress: @escaping (EditProgress) -> Bool = { _ in true }
    ) throws(MemoLibraryError) -> EditResult {
        let memo = try editable(id, verb: "edited")
        let range = range ?? 0..<memo.frames
        guard range.lowerBound >= 0, range.upperBound <= memo.frames, !range.isEmpty else {
            throw .invalidEdit(memo: memo, reason: "the range \(Self.time(range.lowerBound, memo))–\(Self.time(range.upperBound, memo)) s is empty or goes past the end of the memo (it is \(Self.time(memo.frames, memo)) s long)")
        }
        let scan: (blocks: [Bool], blockFrames: Int64)
        do throws(SoundFileError) {
            let reader = try SoundFileReader(path: memo.path)
            defer { reader.close() }
            scan = try removal.silentBlocks(of: reader)
        } catch {
            throw .sound(error)
        }
        let kept = removal.keptRanges(silentBlocks: scan.blocks, blockFrames: scan.blockFrames, within: range, sampleRate: memo.sampleRate)
        guard !kept.isEmpty else {
            throw .invalidEdit(memo: memo, reason: "it is all silence below \(removal.thresholdText) dBFS: nothing would be kept")
        }
        guard kept != [0..<memo.frames] else {
            throw .invalidEdit(memo: memo, reason: "it has no pause longer than \(DecimalSeconds.text(removal.keptPause)) s below \(removal.thresholdText) dBFS: nothing would be removed")
        }
        return try edit(memo, into: [EditPiece(title: memo.title, ranges: kept)], at: date, progress: progress)
    }
}
