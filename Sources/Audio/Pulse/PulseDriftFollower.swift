/// The rule that keeps two joined inputs of their own clocks aligned: how far the first input's
/// buffer runs ahead of the second's (its lead, in frames) is followed over windows of a fixed
/// length; the middle of the first window's range is the baseline, and when a later window's
/// middle has moved from it by more than a tolerance, the input that ran ahead drops the
/// difference. The middle of a range, not a single reading: the lead jitters by the chunks each
/// stream arrives in.
///
/// A value the capture thread owns; time is passed in.
struct PulseDriftFollower {
    /// The length of a window.
    let window: Duration
    /// How far a window's middle may move from the baseline before frames are dropped.
    let toleranceFrames: Int

    private var windowEnds: ContinuousClock.Instant?
    private var lowest = Int.max
    private var highest = Int.min
    /// The first window's middle.
    private(set) var baseline: Int?

    init(window: Duration, toleranceFrames: Int) {
        self.window = window
        self.toleranceFrames = toleranceFrames
    }

    /// Takes the lead at `now`; returns the frames to drop now: positive from the first input,
    /// negative from the second, 0 for none.
    mutating func observe(lead: Int, at now: ContinuousClock.Instant) -> Int {
        lowest = min(lowest, lead)
        highest = max(highest, lead)
        guard let windowEnds else {
            windowEnds = now + window
            return 0
        }
        guard now >= windowEnds else { return 0 }
        // The lead is at most a ring's frames either way: no overflow.
        let middle = (lowest + highest) / 2
        self.windowEnds = now + window
        lowest = Int.max
        highest = Int.min
        guard let baseline else {
            baseline = middle
            return 0
        }
        let moved = middle - baseline
        return abs(moved) > toleranceFrames ? moved : 0
    }
}
