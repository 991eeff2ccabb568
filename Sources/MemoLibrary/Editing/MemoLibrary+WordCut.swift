import Foundation
import Metering
import SoundFiles
import Vocabulary

/// Editing by words (the transcript view's `x` and `K`): the words chosen are cut out of the
/// memo, or kept alone, with each cut at the quietest 10 ms of the pause around the chosen words
/// (never inside a word). As exact as a trim for PCM and FLAC; markers and the transcript's
/// words move with the audio (`edit`).
extension MemoLibrary {
    /// A new memo of memo `id` without the audio between the quietest moments of `pauseBefore`
    /// and `pauseAfter` (seconds), or, `keeping`, with only that audio; the original goes to
    /// Recently Deleted. A pause that reaches the memo's start or end cuts from there.
    ///
    /// - Throws: `.invalidEdit` when nothing would be left, the span is the whole memo (keeping),
    ///   the pauses are not in order or outside the memo, or a marker lies in the audio cut out;
    ///   as `trim`.
    public func cutWords(
        id: Int64, pauseBefore: ClosedRange<Double>, pauseAfter: ClosedRange<Double>, keeping: Bool, at date: Date,
        progress: @escaping (EditProgress) -> Bool = { _ in true }
    ) throws(MemoLibraryError) -> EditResult {
        let memo = try editable(id, verb: "edited")
        let duration = Double(memo.frames) / Double(memo.sampleRate)
        guard pauseBefore.lowerBound.isFinite, pauseAfter.upperBound.isFinite, pauseBefore.lowerBound >= 0,
            pauseBefore.upperBound <= pauseAfter.lowerBound, pauseBefore.lowerBound < duration
        else {
            throw .invalidEdit(memo: memo, reason: "the words chosen are not inside the memo (it is \(Self.time(memo.frames, memo)) s long)")
        }
        let atStart = pauseBefore.lowerBound <= 0 && !keeping
        let atEnd = pauseAfter.upperBound >= duration && !keeping
        let start = atStart ? 0 : try quietestFrame(of: memo, in: pauseBefore)
        let end = atEnd ? memo.frames : try quietestFrame(of: memo, in: pauseAfter)
        guard start < end else {
            throw .invalidEdit(memo: memo, reason: "the words chosen hold no audio")
        }
        if keeping {
            guard start > 0 || end < memo.frames else {
                throw .invalidEdit(memo: memo, reason: "the words chosen are the whole memo: nothing to trim")
            }
            return try edit(memo, into: [EditPiece(title: memo.title, ranges: [start..<end])], by: .trim, at: date, progress: progress)
        }
        let kept = [0..<start, end..<memo.frames].filter { !$0.isEmpty }
        guard !kept.isEmpty else {
            throw .invalidEdit(memo: memo, reason: "those are all of its words: nothing would be left (d on the table deletes the memo)")
        }
        let cut = Double(start) / Double(memo.sampleRate)...Double(end) / Double(memo.sampleRate)
        if let marker = try markers(ofMemo: memo.id).first(where: { cut.contains($0.time) && $0.time > cut.lowerBound }) {
            let label = marker.label.isEmpty ? "" : " (“\(marker.label)”)"
            throw .invalidEdit(
                memo: memo,
                reason: "the marker at \(DisplayFormat.elapsedTime(seconds: marker.time))\(label) is among the words chosen; "
                    + "choose words around it, or remove it first")
        }
        return try edit(memo, into: [EditPiece(title: memo.title, ranges: kept)], by: .cut, at: date, progress: progress)
    }

    /// The frame in the middle of the quietest 10 ms block of `pause` (seconds, within the memo);
    /// a pause shorter than a block is cut in its middle.
    func quietestFrame(of memo: Memo, in pause: ClosedRange<Double>) throws(MemoLibraryError) -> Int64 {
        let rate = Double(memo.sampleRate)
        let first = min(max(Int64((pause.lowerBound * rate).rounded()), 0), memo.frames)
        let last = min(max(Int64((pause.upperBound * rate).rounded()), first), memo.frames)
        let block = Int64(max(1, memo.sampleRate / 100))
        guard last - first > block else { return (first + last) / 2 }
        let channels = max(1, memo.channels)
        do throws(SoundFileError) {
            let reader = try SoundFileReader(path: memo.path)
            defer { reader.close() }
            try reader.seek(toFrame: first)
            // Whole blocks, 64 at a time: a pause of minutes costs no more memory than one of a second.
            let blocksPerRead = 64
            var samples = [Float](repeating: 0, count: Int(block) * blocksPerRead * channels)
            var best = (energy: Float.infinity, frame: (first + last) / 2)
            var position = first
            while last - position >= block {
                let wanted = Int(min(Int64(blocksPerRead), (last - position) / block) * block)
                let result = samples.withUnsafeMutableBytes { bytes -> Result<Int, SoundFileError> in
                    guard let base = bytes.baseAddress else { return .success(0) }
                    return Result { () throws(SoundFileError) -> Int in try reader.read(into: base, frames: wanted, as: .float32) }
                }
                let read = try result.get()
                guard read > 0 else { break }
                var offset = 0
                while offset + Int(block) <= read {
                    var energy: Float = 0
                    for index in (offset * channels)..<((offset + Int(block)) * channels) { energy += samples[index] * samples[index] }
                    if energy < best.energy { best = (energy, position + Int64(offset) + block / 2) }
                    offset += Int(block)
                }
                position += Int64(read)
                if read < wanted { break }
            }
            return best.frame
        } catch {
            throw .sound(error)
        }
    }
}
