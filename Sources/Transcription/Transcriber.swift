import MemoLibrary
import SoundFiles
import Vocabulary

/// The whole pipeline: a sound file in any format and rate → mono → 16 kHz (libsamplerate) →
/// utterances split at pauses (`PauseSegmenter`) → the stretches of each that hold speech
/// (`SpeechGate`) → PocketSphinx → words with times in the file.
///
/// A meeting memo (`Memo.channelRoles`) is segmented and gated on the mix of its sides, and
/// each stretch is decoded from the louder side alone (`SpeakerChoice`), its words labelled
/// with that side's speaker: one decode per stretch, as for any other memo.
///
/// Memory stays bounded whatever the length: the file is read in blocks, and an utterance lasts
/// at most 30 s. The recogniser is loaded once and reused for every file. Not thread-safe: a
/// background job owns one transcriber.
public final class Transcriber {
    /// What a file's transcription found.
    public struct Result: Sendable, Equatable {
        /// Every word in order, times in seconds from the start of the file.
        public var words: [RecognizedWord]
        /// Seconds of audio in the file.
        public var audioDuration: Double
        /// Seconds of audio handed to the recogniser: the speech in the file and its margins
        /// (all of it when `skipsNonSpeech` is off).
        public var decodedDuration: Double
        /// Frames of the file, at its own rate.
        public var frames: Int64
        /// How many utterances the file was decoded in.
        public var utterances: Int
    }

    public let model: SpeechModel
    /// Whether only the stretches the speech detector calls speech are decoded (`SpeechGate`);
    /// off, every utterance is decoded whole. On unless a measurement turns it off.
    public var skipsNonSpeech = true
    private var loadedRecognizer: SpeechRecognizer?

    public init(model: SpeechModel) {
        self.model = model
    }

    /// Transcribes memo `memo`'s file into a `Transcript` for `MemoLibrary.storeTranscript`.
    ///
    /// - Parameters:
    ///   - progress: called after each block with the fraction of the file done (0…1).
    ///   - shouldStop: asked after each block; `true` abandons the work (`.cancelled`), e.g.
    ///     when a recording starts or the memo was deleted.
    public func transcribe(
        memo: Memo, progress: (Double) -> Void = { _ in }, shouldStop: () -> Bool = { false }
    ) throws(TranscriptionError) -> Transcript {
        let result = try transcribe(
            path: memo.path, channelRoles: memo.channelRoles, progress: progress, shouldStop: shouldStop)
        return Transcript(words: result.words, model: model.name, frames: memo.frames)
    }

    /// Transcribes the sound file at `path`; see `transcribe(memo:progress:shouldStop:)`.
    ///
    /// - Parameter channelRoles: a meeting's: each stretch is decoded from its louder side and
    ///   its words carry that side's speaker.
    public func transcribe(
        path: String, channelRoles: ChannelRoles? = nil, progress: (Double) -> Void = { _ in },
        shouldStop: () -> Bool = { false }
    ) throws(TranscriptionError) -> Result {
        let audio = try SpeechAudioReader(path: path, channelRoles: channelRoles)
        let recognizer = try recognizer()
        try recognizer.beginStream()
        var decoding = Decoding(
            recognizer: recognizer, gate: skipsNonSpeech ? SpeechGate() : nil, hasSides: audio.channelRoles != nil)
        while true {
            if shouldStop() { throw .cancelled }
            guard let samples = try audio.nextBlock() else { break }
            try decoding.feed(samples, sides: audio.sides)
            progress(audio.fractionRead)
        }
        try decoding.finish()
        guard audio.framesRead > 0 else { throw .noAudio(path: path) }
        return Result(
            words: decoding.words, audioDuration: Double(audio.framesRead) / Double(audio.info.sampleRate),
            decodedDuration: Double(decoding.decodedSamples) / Double(SpeechRecognizer.sampleRate),
            frames: audio.framesRead, utterances: decoding.utterances)
    }

    private func recognizer() throws(TranscriptionError) -> SpeechRecognizer {
        if let loadedRecognizer { return loadedRecognizer }
        let recognizer = try SpeechRecognizer(model: model)
        loadedRecognizer = recognizer
        return recognizer
    }
}

/// The recogniser fed one 16 kHz stream (one file), cut into utterances where the segmenter
/// says; keeps the words with their times from the start of the file.
///
/// Each utterance is collected (at most `PauseSegmenter.maximumLength`, 30 s: 0.96 MB); the
/// gate, when there is one, names the stretches of it that hold speech, and each is decoded in
/// one call as a whole utterance, so its cepstral mean is its own. What is skipped moves no
/// word: a stretch's words are offset by where it starts in the file. With a meeting's sides,
/// a stretch is decoded from the louder side's samples instead of the mix (`SpeakerChoice`).
struct Decoding {
    let recognizer: SpeechRecognizer
    var segmenter = PauseSegmenter()
    var gate: SpeechGate?
    private(set) var words: [RecognizedWord] = []
    /// Utterances handed to the recogniser.
    private(set) var utterances = 0
    /// Samples handed to the recogniser.
    private(set) var decodedSamples = 0
    private var utterance: [Int16] = []
    /// The utterance's samples on each side of a meeting, in step with `utterance`; `nil` for any other memo.
    private var sides: SpeechAudioReader.Sides?
    /// Samples of the stream before the current utterance: where it starts in the file.
    private var utteranceStart = 0

    init(recognizer: SpeechRecognizer, gate: SpeechGate?, hasSides: Bool = false) {
        self.recognizer = recognizer
        self.gate = gate
        let capacity = Int(segmenter.maximumLength) * SpeechRecognizer.sampleRate
        utterance.reserveCapacity(capacity)
        if hasSides {
            var sides = SpeechAudioReader.Sides()
            sides.microphone.reserveCapacity(capacity)
            sides.desktop.reserveCapacity(capacity)
            self.sides = sides
        }
    }

    /// Feeds a block of the mix, and of each side when the memo is a meeting's (`blockSides`,
    /// as many samples as `samples`).
    mutating func feed(_ samples: [Int16], sides blockSides: SpeechAudioReader.Sides? = nil) throws(TranscriptionError) {
        guard !samples.isEmpty else { return }
        // The gate judges the whole block first: an utterance ending in it has all its frames judged.
        samples.withUnsafeBufferPointer { gate?.feed($0) }
        let cuts = samples.withUnsafeBufferPointer { segmenter.boundaries(in: $0) }
        var from = 0
        for cut in cuts {
            append(samples, blockSides, from..<cut)
            from = cut
            try endUtterance()
        }
        append(samples, blockSides, from..<samples.count)
    }

    private mutating func append(_ samples: [Int16], _ blockSides: SpeechAudioReader.Sides?, _ range: Range<Int>) {
        utterance += samples[range]
        guard sides != nil, let blockSides else { return }
        sides?.microphone += blockSides.microphone[range]
        sides?.desktop += blockSides.desktop[range]
    }

    /// Decodes the last utterance.
    mutating func finish() throws(TranscriptionError) {
        try endUtterance()
    }

    private mutating func endUtterance() throws(TranscriptionError) {
        guard !utterance.isEmpty else { return }
        let stretches = gate?.stretches(start: utteranceStart, count: utterance.count) ?? [0..<utterance.count]
        for stretch in stretches {
            try decode(stretch)
        }
        utteranceStart += utterance.count
        utterance.removeAll(keepingCapacity: true)
        sides?.microphone.removeAll(keepingCapacity: true)
        sides?.desktop.removeAll(keepingCapacity: true)
    }

    private mutating func decode(_ stretch: Range<Int>) throws(TranscriptionError) {
        var speaker: Speaker?
        try recognizer.beginUtterance()
        if let sides, sides.microphone.count == utterance.count, sides.desktop.count == utterance.count {
            let louder = SpeakerChoice.louder(microphone: sides.microphone[stretch], desktop: sides.desktop[stretch])
            speaker = louder
            try recognizer.process(
                louder == .me ? sides.microphone[stretch] : sides.desktop[stretch], wholeUtterance: true)
        } else {
            try recognizer.process(utterance[stretch], wholeUtterance: true)
        }
        // A whole utterance's frames count from its own start (`full_utt` does not move
        // PocketSphinx's stream offset), so the stretch's place in the file is added here.
        let offset = Double(utteranceStart + stretch.lowerBound) / Double(SpeechRecognizer.sampleRate)
        for word in try recognizer.endUtterance() {
            words.append(
                RecognizedWord(word: word.word, start: word.start + offset, end: word.end + offset, speaker: speaker))
        }
        decodedSamples += stretch.count
        utterances += 1
    }
}
