import SoundFiles
import VoiceActivation

/// Which stretches of a 16 kHz mono stream hold speech, so that the recogniser decodes only
/// those: PocketSphinx costs the same per second whatever it hears, and in noise it finds words
/// that nobody said.
///
/// Each 10 ms frame is judged by the speech detector voice activation uses (`SpeechDetector`:
/// WebRTC's voice activity detector and a voicing check, which turns down steady noise, tones
/// and hum). A stretch runs from `margin` before a speech frame to `margin` after one, so that
/// unvoiced onsets, soft endings and the detector's own lag are kept. Only non-speech of at
/// least `shortestSkip` is left out, between stretches or at an utterance's edges: the
/// recogniser normalises each utterance by its own cepstral mean, so the quiet around the words
/// is part of what it hears, and trimming a pause of a second changes words (with 0.3 s margins
/// alone, the LibriVox clips' WER is 0.296 instead of 0.282: `voicememo-bench transcribe`). An
/// utterance of speech with ordinary pauses is therefore decoded whole, and one without speech
/// not at all. Frames are numbered from the start of the stream: the caller asks for the
/// stretches of one utterance at a time, in order, and the gate forgets the frames before its end.
///
/// Without a detector (WebRTC could not be set up) every utterance is one stretch: skipping
/// saves time, it is never needed for a right transcript.
struct SpeechGate {
    /// Frames kept before the first and after the last speech frame of a stretch (300 ms).
    var margin = 30
    /// The shortest non-speech left out, in frames (2 s), margins not counted.
    var shortestSkip = 200

    private static let frameLength = PauseSegmenter.frameLength
    private let detector: SpeechDetector?
    /// Whether each judged frame is speech, from frame `firstFrame` of the stream on.
    private var speech: [Bool] = []
    private var firstFrame = 0
    /// Samples of the frame being judged that the detector has already been fed.
    private var frameFill = 0

    init() {
        let format = StreamFormat(sampleRate: SpeechRecognizer.sampleRate, channels: 1, sampleFormat: .int16)
        detector = try? SpeechDetector(format: format)
    }

    /// Judges the stream's next samples.
    mutating func feed(_ samples: UnsafeBufferPointer<Int16>) {
        guard let detector, let base = samples.baseAddress else { return }
        var index = 0
        while index < samples.count {
            let taken = min(Self.frameLength - frameFill, samples.count - index)
            detector.consume(UnsafeRawPointer(base + index), frames: taken)
            index += taken
            frameFill += taken
            if frameFill == Self.frameLength {
                frameFill = 0
                record(isSpeech: detector.isSpeech)
            }
        }
    }

    /// Appends the judgement of the stream's next frame (`feed` calls it; tests call it directly).
    mutating func record(isSpeech: Bool) {
        speech.append(isSpeech)
    }

    /// The stretches to decode of the utterance of `count` samples that starts `start` samples
    /// into the stream, as sample ranges within the utterance, in order; then forgets the
    /// frames before the utterance's end.
    mutating func stretches(start: Int, count: Int) -> [Range<Int>] {
        guard count > 0 else { return [] }
        guard detector != nil else { return [0..<count] }
        let end = start + count
        let firstUtteranceFrame = start / Self.frameLength
        let endFrame = (end + Self.frameLength - 1) / Self.frameLength
        var frames: [Range<Int>] = []
        for frame in firstUtteranceFrame..<endFrame where isSpeech(frame) {
            let lower = max(firstUtteranceFrame, frame - margin)
            let upper = min(endFrame, frame + margin + 1)
            if let last = frames.last, lower < last.upperBound + shortestSkip {
                frames[frames.count - 1] = last.lowerBound..<max(last.upperBound, upper)
            } else {
                frames.append(lower..<upper)
            }
        }
        forget(before: end / Self.frameLength)
        if let first = frames.first, first.lowerBound - firstUtteranceFrame < shortestSkip {
            frames[0] = firstUtteranceFrame..<first.upperBound
        }
        if let last = frames.last, endFrame - last.upperBound < shortestSkip {
            frames[frames.count - 1] = last.lowerBound..<endFrame
        }
        return frames.map { range in
            let lower = max(start, range.lowerBound * Self.frameLength) - start
            let upper = min(end, range.upperBound * Self.frameLength) - start
            return lower..<upper
        }
    }

    /// A frame not judged yet (the stream's last, partial frame) is not speech.
    private func isSpeech(_ frame: Int) -> Bool {
        let index = frame - firstFrame
        return index >= 0 && index < speech.count && speech[index]
    }

    private mutating func forget(before frame: Int) {
        let dropped = min(max(0, frame - firstFrame), speech.count)
        speech.removeFirst(dropped)
        firstFrame += dropped
    }
}
