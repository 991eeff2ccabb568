import Audio
import Glibc
import Platform
import SoundFiles
import Synchronization

/// Draft words heard while recording, with their times in seconds from when captions began.
public struct Caption: Sendable, Equatable {
    /// The words, separated by single spaces.
    public var text: String
    public var start: Double
    public var end: Double
    /// The utterance ended: these words stay. A caption that is not final is a guess at the
    /// utterance so far, which the next caption replaces.
    public var isFinal: Bool

    public init(text: String, start: Double, end: Double, isFinal: Bool) {
        self.text = text
        self.start = start
        self.end = end
        self.isFinal = isFinal
    }
}

/// What a `LiveCaptioner` reports, on its own thread.
public enum CaptionReport: Sendable, Equatable {
    case caption(Caption)
    /// The recogniser could not keep up with the input (its buffer filled): captions stopped.
    case fellBehind
    /// Captions could not start or went on failing (no model, PocketSphinx refused): stopped.
    case unavailable(TranscriptionError)
}

/// The capture side of live captions: a bounded lock-free ring the capture thread copies each
/// chunk into, never waiting and never allocating. A chunk that does not fit marks the tap as
/// fallen behind, and from then on every chunk is ignored: captions stop rather than lag.
public final class CaptionTap: CaptureTap, Sendable {
    /// The format of the frames `drain` delivers (the engine's).
    public let format: StreamFormat
    private let ring: RingBuffer
    private let behind = Atomic<Bool>(false)
    private let ended = Atomic<Bool>(false)
    nonisolated(unsafe) private let straddling: UnsafeMutableRawPointer

    /// - Parameter seconds: how much audio waits for the recogniser before it counts as behind.
    public init(format: StreamFormat, seconds: Double = 5) {
        self.format = format
        ring = RingBuffer(minimumCapacity: max(1, Int(seconds * Double(format.sampleRate))) * format.bytesPerFrame)
        straddling = UnsafeMutableRawPointer.allocate(byteCount: format.bytesPerFrame, alignment: 16)
    }

    deinit {
        straddling.deallocate()
    }

    /// Whether a chunk found the ring full: the recogniser could not keep up.
    public var hasFallenBehind: Bool { behind.load(ordering: .acquiring) }

    /// Whether capture has ended (the source ran out or failed).
    public var captureHasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Hands the frames captured since the last call to `body`, at most `maxFrames`; returns
    /// how many. Call from one thread.
    @discardableResult
    public func drain<E: Error>(
        maxFrames: Int = .max, _ body: (UnsafeRawPointer, _ frames: Int) throws(E) -> Void
    ) throws(E) -> Int {
        try ring.readWholeFrames(
            bytesPerFrame: format.bytesPerFrame, straddling: straddling, maxFrames: maxFrames, body)
    }

    package func capture(_ buffer: UnsafeRawPointer, frames: Int, firstFrame: Int) {
        guard !behind.load(ordering: .relaxed) else { return }
        let bytes = frames * format.bytesPerFrame
        if ring.availableToWrite >= bytes {
            _ = ring.write(buffer, count: bytes)
        } else {
            behind.store(true, ordering: .releasing)
        }
    }

    package func captureEnded(error: CaptureError?) {
        ended.store(true, ordering: .releasing)
    }
}

/// PocketSphinx streaming over one input: interleaved frames in any format in, captions out.
/// Mono (channels averaged), 16 kHz (`Resampler`), cut into utterances at pauses
/// (`PauseSegmenter`); each utterance is streamed (`ps_process_raw` in parts) and guessed at
/// (`ps_get_hyp`) every `guessInterval` of audio, and its words are settled at its end.
///
/// The draft is worse than a whole-file transcription: a streamed utterance's cepstral mean is a
/// running one. Not thread-safe: one thread feeds it.
public final class StreamingCaptions {
    /// Seconds of audio between two guesses at the current utterance.
    public static let guessInterval = 0.3

    private let recognizer: SpeechRecognizer
    private let resampler: Resampler?
    private let inputFormat: StreamFormat
    /// Shorter utterances than a memo's transcription: a caption settles sooner after a pause,
    /// and each guess (`ps_get_hyp`, over the whole utterance so far) stays cheap.
    private var segmenter: PauseSegmenter = {
        var segmenter = PauseSegmenter()
        segmenter.pause = 0.3
        segmenter.softLimit = 6
        segmenter.maximumLength = 12
        return segmenter
    }()
    private var mono: [Float] = []
    private var resampled: [Float] = []
    /// 16 kHz samples decoded since the stream began.
    private var decodedSamples = 0
    private var utteranceStart = 0
    private var samplesSinceGuess = 0
    private var lastGuess = ""

    /// Loads the model (a second or so of CPU).
    ///
    /// - Throws: `.recognizer` when PocketSphinx refuses the model, `.resampling` for a rate
    ///   libsamplerate cannot convert.
    public init(model: SpeechModel, inputFormat: StreamFormat) throws(TranscriptionError) {
        self.inputFormat = inputFormat
        if inputFormat.sampleRate == SpeechRecognizer.sampleRate {
            resampler = nil
        } else {
            do {
                resampler = try Resampler(inputRate: inputFormat.sampleRate, outputRate: SpeechRecognizer.sampleRate)
            } catch {
                throw .resampling(error)
            }
        }
        recognizer = try SpeechRecognizer(model: model)
        try recognizer.beginStream()
    }

    /// Decodes `frames` interleaved frames in the input's format; returns the captions they gave.
    public func feed(_ buffer: UnsafeRawPointer, frames: Int) throws(TranscriptionError) -> [Caption] {
        guard frames > 0 else { return [] }
        Self.downmix(buffer, frames: frames, format: inputFormat, into: &mono)
        resampled.removeAll(keepingCapacity: true)
        if let resampler {
            var output = resampled
            let converted = mono.withUnsafeBufferPointer { samples -> Result<Void, ResamplingError> in
                Result { () throws(ResamplingError) in try resampler.process(samples, endOfInput: false, into: &output) }
            }
            resampled = output
            if case .failure(let error) = converted { throw .resampling(error) }
        } else {
            resampled.append(contentsOf: mono)
        }
        return try feed(speech: Resampler.int16Samples(resampled))
    }

    /// Decodes 16 kHz mono samples; returns the captions they gave.
    public func feed(speech samples: [Int16]) throws(TranscriptionError) -> [Caption] {
        guard !samples.isEmpty else { return [] }
        var captions: [Caption] = []
        let cuts = samples.withUnsafeBufferPointer { segmenter.boundaries(in: $0) }
        var from = 0
        for cut in cuts {
            try decode(samples[from..<cut])
            from = cut
            if let caption = try endUtterance() { captions.append(caption) }
        }
        try decode(samples[from...])
        if samplesSinceGuess >= Int(Self.guessInterval * Double(SpeechRecognizer.sampleRate)) {
            samplesSinceGuess = 0
            let guess = recognizer.hypothesis()
            if guess != lastGuess {
                lastGuess = guess
                captions.append(Caption(text: guess, start: seconds(utteranceStart), end: seconds(decodedSamples), isFinal: false))
            }
        }
        return captions
    }

    /// Ends the utterance in progress; its settled words, if it had any.
    public func finish() throws(TranscriptionError) -> [Caption] {
        try endUtterance().map { [$0] } ?? []
    }

    private func decode(_ samples: ArraySlice<Int16>) throws(TranscriptionError) {
        guard !samples.isEmpty else { return }
        try recognizer.process(samples)
        decodedSamples += samples.count
        samplesSinceGuess += samples.count
    }

    private func endUtterance() throws(TranscriptionError) -> Caption? {
        // Streamed utterances' word frames count from the stream's start (`ps_seg_frames`).
        let words = try recognizer.endUtterance()
        let start = utteranceStart
        utteranceStart = decodedSamples
        samplesSinceGuess = 0
        let guessed = !lastGuess.isEmpty
        lastGuess = ""
        guard !words.isEmpty || guessed else { return nil }
        return Caption(
            text: words.map(\.word).joined(separator: " "), start: words.first?.start ?? seconds(start),
            end: words.last?.end ?? seconds(decodedSamples), isFinal: true)
    }

    private func seconds(_ samples: Int) -> Double {
        Double(samples) / Double(SpeechRecognizer.sampleRate)
    }

    /// The average of the channels, as floats at ±1.0 full scale.
    static func downmix(_ buffer: UnsafeRawPointer, frames: Int, format: StreamFormat, into mono: inout [Float]) {
        var mixdown = MonoMixdown(channels: format.channels, mono: mono)
        mono = []
        format.sampleFormat.deliver(buffer, samples: frames * format.channels, to: &mixdown)
        mono = mixdown.mono
    }
}

/// Live captions of an open input: a `CaptionTap` on the engine, drained by a thread of its
/// own (`vm-captions`, nice 10) that runs `StreamingCaptions` and hands each caption to
/// `report`. When the tap falls behind, `report` hears `.fellBehind` once and the captioner
/// ends; the recording on the same engine never waits for it.
public final class LiveCaptioner: Sendable {
    private let engine: CaptureEngine
    private let tap: CaptionTap
    private let stopping = StopFlag()
    private let thread = Mutex<JoinableThread?>(nil)

    /// Attaches to `engine` and starts the thread, which loads the model.
    ///
    /// - Parameters:
    ///   - modelDirectory: the PocketSphinx model folder.
    ///   - report: called on the captioner's thread with each caption, and at most once with
    ///     `.fellBehind` or `.unavailable`, after which nothing more comes.
    /// - Throws: `.modelMissing` when the model folder is incomplete (checked before anything
    ///   is attached).
    public init(
        engine: CaptureEngine, modelDirectory: String, bufferSeconds: Double = 5,
        report: @escaping @Sendable (CaptionReport) -> Void
    ) throws(TranscriptionError) {
        let model = try SpeechModel(directory: modelDirectory)
        self.engine = engine
        let tap = CaptionTap(format: engine.format, seconds: bufferSeconds)
        self.tap = tap
        let stopping = self.stopping
        engine.attach(tap)
        thread.withLock {
            $0 = JoinableThread(name: "vm-captions") {
                BackgroundPriority.heavy.lowerCallingThread()
                Self.run(tap: tap, model: model, stopping: stopping, report: report)
                engine.detach(tap)
            }
        }
    }

    deinit {
        stop()
    }

    /// Ends the captions at once (what is still queued is not decoded) and waits for the thread.
    /// Idempotent.
    public func stop() {
        stopping.set()
        engine.detach(tap)
        thread.withLock { $0.take() }?.join()
    }

    private static func run(
        tap: CaptionTap, model: SpeechModel, stopping: StopFlag, report: @Sendable (CaptionReport) -> Void
    ) {
        let captions: StreamingCaptions
        do {
            captions = try StreamingCaptions(model: model, inputFormat: tap.format)
        } catch {
            report(.unavailable(error))
            return
        }
        let block = max(1, tap.format.sampleRate / 10)
        while true {
            // Checked before the stop: a recording that outran the captions and ended meanwhile
            // (an unpaced file) still hears why they stopped.
            if tap.hasFallenBehind {
                report(.fellBehind)
                return
            }
            if stopping.isSet { return }
            let ended = tap.captureHasEnded
            do {
                let frames = try tap.drain(maxFrames: block) { (buffer, frames) throws(TranscriptionError) in
                    for caption in try captions.feed(buffer, frames: frames) { report(.caption(caption)) }
                }
                if frames == 0 {
                    if ended {
                        for caption in try captions.finish() { report(.caption(caption)) }
                        return
                    }
                    usleep(20_000)
                }
            } catch {
                report(.unavailable(error))
                return
            }
        }
    }
}

/// A flag one thread sets and another polls.
private final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() {
        value.store(true, ordering: .releasing)
    }
}

/// Interleaved samples of any format averaged to one channel at ±1.0 full scale, through the
/// one place raw bytes become typed samples (`SampleFormat.deliver`).
struct MonoMixdown: InterleavedSampleConsumer {
    let channels: Int
    /// The last block's frames, reused from block to block.
    var mono: [Float]

    mutating func consume(_ samples: UnsafeBufferPointer<Int16>) { mix(samples) { Float($0) / 32768 } }
    mutating func consume(_ samples: UnsafeBufferPointer<Int32>) { mix(samples) { Float($0) / 2_147_483_648 } }
    mutating func consume(_ samples: UnsafeBufferPointer<Float>) { mix(samples) { $0 } }

    private mutating func mix<Sample>(_ samples: UnsafeBufferPointer<Sample>, _ value: (Sample) -> Float) {
        let frames = samples.count / channels
        if mono.count != frames { mono = [Float](repeating: 0, count: frames) }
        let scale = 1 / Float(channels)
        let channels = channels
        mono.withUnsafeMutableBufferPointer { out in
            for frame in 0..<frames {
                var sum: Float = 0
                for channel in 0..<channels { sum += value(samples[frame * channels + channel]) }
                out[frame] = sum * scale
            }
        }
    }
}
