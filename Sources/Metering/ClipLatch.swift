/// What counts as a clip, everywhere: the app's CLIP light, `meter`, `record`'s live line,
/// `analyze`, the statistics stored with each memo and `list --json`'s `clips`.
///
/// A clip is a run of at least `consecutiveFullScaleSamples` consecutive full-scale samples in
/// one channel (magnitude from 32767 for Int16, 0x7FFFFF00 for Int32, 1.0 for Float: where a
/// converter runs out of range), counted once however long it lasts and wherever buffers or
/// meter snapshots split it. One full-scale sample is often a loud but clean peak; three in a
/// row mean the converter ran out of range (the digital peak meters' convention). Counts are
/// clips, not samples: a 10 ms overload is one clip.
public enum ClipRule {
    /// Consecutive full-scale samples that make a clip.
    public static let consecutiveFullScaleSamples = 3

    /// Follows one channel's run of full-scale samples; returns whether this sample completed a
    /// clip (the run just reached the rule's length).
    @inline(__always)
    static func advance(_ run: inout Int, isFullScale: Bool) -> Bool {
        guard isFullScale else {
            run = 0
            return false
        }
        run += 1
        return run == consecutiveFullScaleSamples
    }
}

/// A clip indicator that lights on a new clip (`ClipRule`) and stays lit until reset.
///
/// Feed it the input's clip count so far (all channels; `CaptureEngine.totalClipCount`) at
/// every reading: it lights when the count passes what it was at the last reset. A count that
/// goes down is a new input counting from 0.
public struct ClipLatch: Sendable, Equatable {
    /// Whether the latch is lit.
    public private(set) var isLatched = false
    private var lastCount = 0
    private var countAtReset = 0

    public init() {}

    /// Takes the input's clip count so far.
    public mutating func observe(clipCount: Int) {
        if clipCount < lastCount { countAtReset = 0 }
        lastCount = clipCount
        if clipCount > countAtReset { isLatched = true }
    }

    /// Puts the latch out; it lights again at the next clip.
    public mutating func reset() {
        isLatched = false
        countAtReset = lastCount
    }
}
