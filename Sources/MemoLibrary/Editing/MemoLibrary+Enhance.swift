import Foundation
import Vocabulary
import SoundFiles
import SpeechEnhancement

extension MemoLibrary {
    /// Makes a new memo of memo `id` with its noise suppressed (`SpeechEnhancer`, SpeexDSP's
    /// denoiser), in the memo's own format, encoding, rate and channels, under the same title;
    /// the original goes to Recently Deleted whole, as a trim's does (`restore` or `undoEdit`
    /// bring it back). Written as every edit is (see `edit`): a failure, a full disk among
    /// them, leaves the original as it was and nothing new.
    ///
    /// - Throws: `.notAllowed` for a memo being recorded, deleted, missing or damaged (naming
    ///   the damage), or at a rate or channel count the enhancer does not take (naming why);
    ///   `.editStopped` when reading or writing failed (the disk full); index errors.
    public func enhance(
        id: Int64, settings: EnhancementSettings = .standard, at date: Date,
        progress: @escaping (EditProgress) -> Bool = { _ in true }
    ) throws(MemoLibraryError) -> EditResult {
        // Enhance's own limits (its rates) are said first: they are the narrower ones.
        let memo = try editable(id, verb: "enhanced", checkingItsAudio: false)
        do {
            _ = try SpeechEnhancer(sampleRate: memo.sampleRate, channels: memo.channels, settings: settings)
        } catch {
            throw .notAllowed(memo: memo, reason: error.description)
        }
        try checkRewritable(memo)
        guard memo.frames > 0 else {
            throw .notAllowed(memo: memo, reason: "it holds no audio: there is nothing to enhance")
        }
        return try edit(
            memo, into: [EditPiece(title: memo.title, ranges: [0..<memo.frames])], by: .enhance, at: date, enhancement: settings,
            progress: progress)
    }
}
