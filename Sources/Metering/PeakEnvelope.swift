/// A memo's peak envelope: the highest absolute sample over all channels in each block of
/// `blockFrames` frames (20 blocks a second), as a byte on a dB scale (`code(forAmplitude:)`:
/// 0 is digital silence, 1…255 is −96…0 dBFS in steps of 0.38 dB; a linear byte would lump
/// everything below −48 dBFS, where quiet speech is, into one step). 72 kB for an hour: small
/// enough to keep with the memo in the index, so a waveform is drawn without reading the audio.
public struct PeakEnvelope: Sendable, Hashable {
    /// Frames per block.
    public let blockFrames: Int
    /// One peak per block (`code(forAmplitude:)`).
    public private(set) var peaks: [UInt8]
    private var blockPeak: Float = 0
    private var framesInBlock = 0
    private let channels: Int

    /// Blocks a second.
    public static let blocksPerSecond = 20

    public init(channels: Int, sampleRate: Int) {
        self.channels = max(1, channels)
        blockFrames = max(1, sampleRate / Self.blocksPerSecond)
        peaks = []
    }

    /// An envelope as stored: `peaks` of blocks of `blockFrames`.
    public init(blockFrames: Int, peaks: [UInt8]) {
        self.blockFrames = max(1, blockFrames)
        self.peaks = peaks
        channels = 1
    }

    public mutating func consume(_ samples: UnsafeBufferPointer<Int16>) {
        consume(samples) { block in
            var peak: Int32 = 0
            for sample in block { peak = max(peak, abs(Int32(sample))) }
            return Float(peak) / 32768
        }
    }

    public mutating func consume(_ samples: UnsafeBufferPointer<Int32>) {
        consume(samples) { block in
            var peak: UInt32 = 0
            for sample in block { peak = max(peak, sample.magnitude) }
            return Float(peak) / 2_147_483_648
        }
    }

    public mutating func consume(_ samples: UnsafeBufferPointer<Float>) {
        consume(samples) { block in
            var peak: Float = 0
            for sample in block { peak = max(peak, sample.magnitude) }
            return peak
        }
    }

    /// Whole frames of `samples`, a block's worth at a time; `peak` gives the highest
    /// magnitude of a run of samples, full scale 1. The integers are compared as integers and
    /// converted once per run: the same figure as converting each sample (rounding to Float
    /// keeps the order), at a fraction of the cost, so that the recorder's writer thread can
    /// measure it beside the statistics.
    private mutating func consume<Sample>(
        _ samples: UnsafeBufferPointer<Sample>, peak: (UnsafeBufferPointer<Sample>) -> Float
    ) {
        let whole = samples.count / channels * channels
        var index = 0
        while index < whole {
            let frames = min(blockFrames - framesInBlock, (whole - index) / channels)
            let end = index + frames * channels
            blockPeak = max(blockPeak, peak(UnsafeBufferPointer(rebasing: samples[index..<end])))
            framesInBlock += frames
            index = end
            if framesInBlock == blockFrames { closeBlock() }
        }
    }

    private mutating func closeBlock() {
        peaks.append(Self.code(forAmplitude: blockPeak))
        blockPeak = 0
        framesInBlock = 0
    }

    /// The lowest level a code tells apart from the one above it.
    public static let floorDB = -96.0

    /// The byte for a peak of `amplitude` (full scale 1): 0 for 0, else 1 + the dB above
    /// −96 dBFS in 254 steps, at least 1 and at most 255.
    public static func code(forAmplitude amplitude: Float) -> UInt8 {
        guard amplitude > 0 else { return 0 }
        let decibels = Double(Decibels.fromAmplitude(Double(min(amplitude, 1))))
        return UInt8(max(1, min(255, 1 + ((decibels - floorDB) / -floorDB * 254).rounded())))
    }

    /// The dBFS a code stands for (−160 for 0).
    public static func decibels(forCode code: UInt8) -> Double {
        code == 0 ? Double(Decibels.floor) : Double(code - 1) / 254 * -floorDB + floorDB
    }

    /// Envelopes are equal when they hold the same blocks (and the same unfinished one): the
    /// channel count only says how samples are read, and a stored envelope does not know it.
    public static func == (left: PeakEnvelope, right: PeakEnvelope) -> Bool {
        left.blockFrames == right.blockFrames && left.peaks == right.peaks && left.blockPeak == right.blockPeak
            && left.framesInBlock == right.framesInBlock
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(blockFrames)
        hasher.combine(peaks)
    }

    /// The envelope with the last, partial block closed.
    public var finished: PeakEnvelope {
        var copy = self
        if copy.framesInBlock > 0 { copy.closeBlock() }
        return copy
    }

    /// The highest peak in each of `width` equal columns over the whole envelope, in dBFS
    /// (−160 for silence); empty for a width below 1 or an empty envelope.
    public func columnPeaks(width: Int) -> [Double] {
        guard width > 0, !peaks.isEmpty else { return [] }
        return (0..<width).map { column in
            let start = column * peaks.count / width
            let end = max(start + 1, (column + 1) * peaks.count / width)
            let peak = peaks[min(start, peaks.count - 1)..<min(end, peaks.count)].max() ?? 0
            return Self.decibels(forCode: peak)
        }
    }
}

/// A waveform as one line of text: a glyph per column whose height follows the column's peak
/// on a dB scale from `floor` (nothing) to `top` (a full block; 0 dBFS unless given).
public enum WaveformLine {
    /// Eighth blocks, lowest first; a column at or below the floor is a space.
    public static let glyphs: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The glyph's level, 0…8, for a peak of `decibels` on the scale `floor`…`top`.
    public static func level(_ decibels: Double, floor: Double = -60, top: Double = 0) -> Int {
        guard decibels > floor else { return 0 }
        let span = max(top - floor, 1)
        return min(8, max(1, Int(((decibels - floor) / span * 8).rounded(.up))))
    }

    public static func text(_ columnPeaks: [Double], floor: Double = -60, top: Double = 0) -> String {
        String(columnPeaks.map { glyphs[level($0, floor: floor, top: top)] })
    }

    /// A memo's waveform on the scale of what is heard in it: its loudest column a full block,
    /// its quiet stretches (the quietest tenth of its columns) a sliver, at least
    /// `minimumRange` dB between them and nothing under −60 dBFS. A loud memo (speech near
    /// full scale over a room at −25 dBFS) shows its words and pauses instead of a solid block;
    /// a quiet one keeps the −60…0 scale's shape.
    public static func heardText(_ columnPeaks: [Double], minimumRange: Double = 24) -> String {
        let scale = heardScale(columnPeaks, minimumRange: minimumRange)
        return text(columnPeaks, floor: scale.floor, top: scale.top)
    }

    /// The scale `heardText` draws on. Pure.
    public static func heardScale(_ columnPeaks: [Double], minimumRange: Double = 24) -> (floor: Double, top: Double) {
        let absoluteFloor = -60.0
        let heard = columnPeaks.filter { $0.isFinite && $0 > absoluteFloor }.sorted()
        guard let loudest = heard.last else { return (absoluteFloor, 0) }
        let top = min(0, loudest)
        let quiet = heard[heard.count / 10]
        // 3 dB under the quiet stretches, so they stay a sliver rather than nothing.
        let floor = max(absoluteFloor, min(quiet - 3, top - minimumRange))
        return (floor, top)
    }
}
