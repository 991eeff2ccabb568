import CPocketSphinx
import Foundation
import Glibc
import MemoLibrary
import Synchronization

/// One word the recogniser heard, with its times in seconds from the start of the stream:
/// the library's own transcript word, so what is heard is what is stored.
public typealias RecognizedWord = TranscriptWord

/// The PocketSphinx decoder (`ps_decoder_t`): 16 kHz mono 16-bit speech in, words with times out,
/// one utterance at a time. Every PocketSphinx call is in this file.
///
/// PocketSphinx's log is switched off for the process (`err_set_logfp(NULL)`, `-logfn
/// /dev/null`), so nothing it says reaches a terminal. Not thread-safe: one decoder per thread.
public final class SpeechRecognizer {
    /// The rate the model was trained at.
    public static let sampleRate = 16000
    /// Feature frames per second (`-frate`, PocketSphinx's default).
    static let framesPerSecond = 100.0

    private let decoder: OpaquePointer
    private var inUtterance = false

    /// The most HMM states the decoder keeps active per frame (`-maxhmmpf`; PocketSphinx's
    /// default is 30 000). At 4 000 the LibriVox clips decode to the same words as with the
    /// default in less than half the CPU; at 3 000 words change (`voicememo-bench transcribe`).
    static let maximumActiveStates = 4000

    /// Loads `model`.
    ///
    /// The decoder's own voice-activity detector is off (`-remove_silence no`): the caller splits
    /// the stream into utterances at pauses (`PauseSegmenter`), and every frame is decoded.
    /// Word frames are 100 a second; `ps_seg_frames` adds the utterance's offset in the stream
    /// only when the utterance was streamed in parts, not when it was given whole.
    ///
    /// - Throws: `.recognizer(call: "ps_init")` when the model cannot be loaded.
    public init(model: SpeechModel) throws(TranscriptionError) {
        voicememo_sphinx_silence_log()
        let arguments = [
            "-hmm", model.acousticModel, "-lm", model.languageModel, "-dict", model.dictionary,
            "-samprate", String(Self.sampleRate), "-remove_silence", "no", "-logfn", "/dev/null",
            "-maxhmmpf", String(Self.maximumActiveStates),
        ]
        var pointers = arguments.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        let config = pointers.withUnsafeMutableBufferPointer { buffer in
            voicememo_sphinx_config(Int32(buffer.count), buffer.baseAddress)
        }
        guard let config else { throw .recognizer(call: "cmd_ln_parse_r", code: -1) }
        // ps_init retains the configuration; ours is released either way.
        defer { cmd_ln_free_r(config) }
        Self.noteExitDuringLoad(of: model)
        let decoder = ps_init(config)
        Self.noteExitDuringLoad(of: nil)
        guard let decoder else { throw .recognizer(call: "ps_init", code: -1) }
        self.decoder = decoder
    }

    /// SphinxBase ends the process with `exit(1)` (E_FATAL) on some damaged model files instead
    /// of failing `ps_init`. While a model loads, an `atexit` handler therefore says on standard
    /// error what happened, since the library's own log is off.
    private static func noteExitDuringLoad(of model: SpeechModel?) {
        exitNoteLock.withLock { _ in setExitNote(for: model) }
    }

    private static func setExitNote(for model: SpeechModel?) {
        _ = exitNoteInstalled
        free(exitNote)
        exitNote = model.map {
            strdup(
                "voicememo: PocketSphinx stopped the program while loading the speech model in \($0.directory) "
                    + "(a model file is damaged); reinstall \(TranscriptionError.modelPackage) or check transcribe.model in the config\n")
        } ?? nil
    }

    deinit {
        if inUtterance { ps_end_utt(decoder) }
        ps_free(decoder)
    }

    /// Starts a new stream (`ps_start_stream`): word times count from here, across all the
    /// utterances that follow, until the next stream.
    public func beginStream() throws(TranscriptionError) {
        if inUtterance { _ = try endUtterance() }
        let result = ps_start_stream(decoder)
        guard result >= 0 else { throw .recognizer(call: "ps_start_stream", code: result) }
    }

    /// Starts an utterance (`ps_start_utt`) in the current stream.
    public func beginUtterance() throws(TranscriptionError) {
        if inUtterance { _ = try endUtterance() }
        let result = ps_start_utt(decoder)
        guard result >= 0 else { throw .recognizer(call: "ps_start_utt", code: result) }
        inUtterance = true
    }

    /// Decodes `samples` (16 kHz mono) as the next part of the utterance (`ps_process_raw`).
    ///
    /// - Parameter wholeUtterance: `samples` are the whole utterance (`full_utt`): the model's
    ///   batch cepstral mean normalisation (`-cmn batch` in its feat.params) is then computed over
    ///   them. Streamed in parts instead, SphinxBase falls back to a running mean carried from one
    ///   utterance (and one file) to the next, so a memo's words would depend on what was
    ///   transcribed before it.
    public func process(_ samples: ArraySlice<Int16>, wholeUtterance: Bool = false) throws(TranscriptionError) {
        guard !samples.isEmpty else { return }
        if !inUtterance { try beginUtterance() }
        let decoder = self.decoder
        let result = samples.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { ps_process_raw(decoder, $0, buffer.count, 0, wholeUtterance ? 1 : 0) } ?? 0
        }
        guard result >= 0 else { throw .recognizer(call: "ps_process_raw", code: result) }
    }

    /// The best guess so far at the current utterance's words (`ps_get_hyp`), fillers left out;
    /// empty outside an utterance or before anything was heard. For a draft while the utterance
    /// is still being streamed: `endUtterance` gives the words it settles on.
    public func hypothesis() -> String {
        guard inUtterance, let raw = ps_get_hyp(decoder, nil) else { return "" }
        return String(cString: raw).split(separator: " ").compactMap { Self.spokenWord(String($0)) }.joined(separator: " ")
    }

    /// Ends the utterance (`ps_end_utt`) and returns its words in order (`ps_seg_iter`), without
    /// silences, fillers (`<s>`, `<sil>`, `[NOISE]`, `++…++`) and pronunciation variants' `(2)`.
    public func endUtterance() throws(TranscriptionError) -> [RecognizedWord] {
        guard inUtterance else { return [] }
        inUtterance = false
        let result = ps_end_utt(decoder)
        guard result >= 0 else { throw .recognizer(call: "ps_end_utt", code: result) }
        var words: [RecognizedWord] = []
        var segment = ps_seg_iter(decoder)
        while let current = segment {
            if let raw = ps_seg_word(current), let word = Self.spokenWord(String(cString: raw)) {
                var startFrame: Int32 = 0
                var endFrame: Int32 = 0
                ps_seg_frames(current, &startFrame, &endFrame)
                // End frames are inclusive: a word on frames 10…19 lasts until 0.20 s.
                words.append(
                    RecognizedWord(
                        word: word, start: Double(startFrame) / Self.framesPerSecond,
                        end: Double(endFrame + 1) / Self.framesPerSecond))
            }
            segment = ps_seg_next(current)
        }
        return words
    }

    /// The word as spoken, or `nil` for a silence or filler entry.
    static func spokenWord(_ entry: String) -> String? {
        guard let first = entry.first, first != "<", first != "[", first != "+" else { return nil }
        if entry.hasSuffix(")"), let open = entry.lastIndex(of: "("), open > entry.startIndex {
            return String(entry[..<open])
        }
        return entry
    }
}

/// The message the `atexit` handler prints while a model loads (`nil` otherwise).
nonisolated(unsafe) private var exitNote: UnsafeMutablePointer<CChar>?
private let exitNoteLock = Mutex(())
private let exitNoteInstalled: Void = {
    atexit {
        if let note = exitNote { _ = write(2, note, strlen(note)) }
    }
}()
