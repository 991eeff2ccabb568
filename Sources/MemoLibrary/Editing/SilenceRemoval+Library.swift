import Foundation
import Vocabulary
import Metering
import SoundFiles

/// The library's side of `SilenceRemoval` (Vocabulary): reading a file's silent blocks, and
/// the threshold in its messages.
extension SilenceRemoval {
    /// The threshold as messages show it: `-50`, `-42.5`.
    var thresholdText: String {
        threshold == threshold.rounded() ? String(Int(threshold)) : String(threshold)
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
        return try edit(memo, into: [EditPiece(title: memo.title, ranges: kept)], by: .removePauses, at: date, progress: progress)
    }
}
