/// The waveform of the recording being made, for the band under the meter while it records
/// (the band used to go on showing the selected memo, which read as a live
/// waveform of the recording).
///
/// Built from the ticks' peaks (`EngineSnapshot.channels`' highest `peak`, dBFS since the last
/// tick) into bins of `binSeconds` of *recorded* time (`recordedFrames`, so a pause leaves no
/// gap); a bin holds the highest peak of the ticks that fell in it. Only the last
/// `capacity` bins are kept: the band shows the newest at its right edge. Pure.
public struct LiveWaveform: Sendable, Hashable {
    /// Recorded seconds per bin (a column of the band): 80 columns show the last 10 s.
    public static let binSeconds = 0.125
    /// Bins kept: wider than any terminal the band is drawn on.
    public static let capacity = 1024

    /// Peaks in dBFS, oldest first; the last one is the bin being filled.
    public private(set) var peaks: [Double] = []
    /// The bin number of `peaks.last` (bins counted from the recording's start).
    public private(set) var lastBin = -1

    public init() {}

    /// Takes a tick's highest peak at `recordedSeconds` into the recording.
    public mutating func add(peak: Double, at recordedSeconds: Double) {
        guard recordedSeconds.isFinite, recordedSeconds >= 0 else { return }
        let level = peak.isFinite ? peak : -160
        // Capped so the conversion cannot trap (2⁶¹ bins are 9 billion years of audio).
        let bin = Int(min(recordedSeconds / Self.binSeconds, Double(1 << 61)))
        // Recorded time never goes back within one recording: an earlier bin is a new one.
        if bin < lastBin { self = LiveWaveform() }
        if bin <= lastBin, !peaks.isEmpty {
            peaks[peaks.count - 1] = max(peaks[peaks.count - 1], level)
            return
        }
        // Bins no tick fell in (a slow tick) take the level of the tick that closes them.
        let missing = lastBin < 0 ? 0 : min(bin - lastBin - 1, Self.capacity)
        peaks.append(contentsOf: repeatElement(level, count: missing))
        peaks.append(level)
        lastBin = bin
        if peaks.count > Self.capacity { peaks.removeFirst(peaks.count - Self.capacity) }
    }

    /// The last `width` bins' peaks, oldest first (fewer when the recording is shorter).
    public func columnPeaks(width: Int) -> [Double] {
        guard width > 0 else { return [] }
        return Array(peaks.suffix(width))
    }

    /// Recorded seconds the last `width` columns span.
    public static func seconds(width: Int) -> Double {
        Double(max(width, 0)) * binSeconds
    }
}
