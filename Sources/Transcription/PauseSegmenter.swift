import Glibc

/// Decides where one utterance ends and the next begins in a 16 kHz mono stream, so that a long
/// memo is decoded in pieces of bounded size (PocketSphinx keeps every frame of an utterance).
///
/// The stream is judged in 10 ms frames by their energy against the noise floor (the quietest
/// frame of the last 3 s). An
/// utterance ends in the middle of a pause — after `pause` of quiet once it holds at least
/// `minimumSpeech` of speech — or, when nobody pauses, at `maximumLength`: from `softLimit` on,
/// a shorter pause (`shortPause`) is enough. Pure: no clock, no C; it sees only the samples.
public struct PauseSegmenter: Sendable {
    /// Samples per judged frame (10 ms at 16 kHz).
    public static let frameLength = 160

    public var pause = 0.5
    public var shortPause = 0.15
    public var minimumSpeech = 0.3
    public var softLimit = 20.0
    public var maximumLength = 30.0
    /// A frame this far above the noise floor is speech.
    public var speechAboveFloorDB = 12.0
    /// A frame below this level is quiet whatever the floor.
    public var quietBelowDB = -55.0
    /// The noise floor is taken to be no higher than this.
    public var highestFloorDB = -40.0

    /// The last 3 s of frame levels: the noise floor is their minimum.
    private var recentLevels = [Double](repeating: 0, count: 300)
    private var recentCount = 0
    private var recentNext = 0
    private var framesInUtterance = 0
    private var speechFrames = 0
    private var quietRun = 0
    private var pending: [Int16] = []

    public init() {}

    /// Feeds samples; returns the offsets (in `samples`) after which the current utterance ends,
    /// in order. Samples before the first offset belong to the current utterance, the rest to
    /// the next ones.
    public mutating func boundaries(in samples: UnsafeBufferPointer<Int16>) -> [Int] {
        var cuts: [Int] = []
        var index = 0
        // A partial frame carried over from the last call is completed first.
        if !pending.isEmpty {
            let needed = Self.frameLength - pending.count
            let taken = min(needed, samples.count)
            pending.append(contentsOf: samples[0..<taken])
            index = taken
            if pending.count == Self.frameLength {
                let ends = pending.withUnsafeBufferPointer { judge($0[...]) }
                pending.removeAll(keepingCapacity: true)
                if ends { cuts.append(index) }
            }
        }
        while index + Self.frameLength <= samples.count {
            let frame = samples[index..<(index + Self.frameLength)]
            index += Self.frameLength
            if judge(frame) { cuts.append(index) }
        }
        if index < samples.count {
            pending.append(contentsOf: samples[index...])
        }
        return cuts
    }

    /// Judges one frame; `true` when the utterance should end after it.
    private mutating func judge(_ frame: Slice<UnsafeBufferPointer<Int16>>) -> Bool {
        var sum = 0.0
        for sample in frame {
            let value = Double(sample)
            sum += value * value
        }
        let rms = (sum / Double(frame.count)).squareRoot() / 32768
        let level = rms > 0 ? 20 * log10(rms) : -120
        recentLevels[recentNext] = level
        recentNext = (recentNext + 1) % recentLevels.count
        recentCount = min(recentCount + 1, recentLevels.count)
        // A steady loud sound is not its own floor: the floor is at most `highestFloorDB`.
        var noiseFloorDB = min(level, highestFloorDB)
        for offset in 0..<recentCount where recentLevels[offset] < noiseFloorDB {
            noiseFloorDB = recentLevels[offset]
        }
        framesInUtterance += 1
        let isQuiet = level < quietBelowDB || level < noiseFloorDB + speechAboveFloorDB
        if isQuiet {
            quietRun += 1
        } else {
            quietRun = 0
            speechFrames += 1
        }
        let seconds = Double(framesInUtterance) / 100
        let quietSeconds = Double(quietRun) / 100
        let hasSpeech = Double(speechFrames) / 100 >= minimumSpeech
        let ends =
            (hasSpeech && quietSeconds >= pause)
            || (seconds >= softLimit && quietSeconds >= shortPause)
            || seconds >= maximumLength
        if ends {
            framesInUtterance = 0
            speechFrames = 0
            quietRun = 0
        }
        return ends
    }

    private func log10(_ value: Double) -> Double {
        Glibc.log10(value)
    }
}
